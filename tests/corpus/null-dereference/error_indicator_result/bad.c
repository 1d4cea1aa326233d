#include <Python.h>
#include <string.h>

struct field { const char *name; Py_ssize_t offset; };
struct layout { int n; struct field *fields; };

int load_layout(struct layout *l);

static struct field *find_field(struct layout *l, const char *name)
{
    if (load_layout(l) < 0)
        return NULL;
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->fields[i].name, name) == 0)
            return &l->fields[i];
    return NULL;
}

static PyObject *layout_offset(struct layout *l, const char *name)
{
    struct field *f = find_field(l, name);
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromSsize_t(f->offset); /* BUG(null-dereference) */
}
