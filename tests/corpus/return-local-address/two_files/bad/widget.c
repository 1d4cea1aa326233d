#include <string.h>
#include "widget.h"

void widget_set_label(struct widget *w, const char *label)
{
    w->label = label;
    w->width = (int)strlen(label) * 8;
}
