#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <pthread.h>

struct vec { int *data; size_t len, cap; };
struct node { struct node *next; char *name; };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct node *head;

int vec_push(struct vec *v, int x) {
    if (v->len == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 8;
        int *nd = realloc(v->data, ncap * sizeof *nd);
        if (!nd) return -1;
        v->data = nd;
        v->cap = ncap;
    }
    v->data[v->len++] = x;
    return 0;
}

void vec_free(struct vec *v) { free(v->data); v->data = NULL; v->len = v->cap = 0; }

struct node *node_new(const char *name) {
    struct node *n = malloc(sizeof *n);
    if (n == NULL) return NULL;
    n->name = strdup(name);
    if (!n->name) { free(n); return NULL; }
    n->next = NULL;
    return n;
}

void node_free(struct node *n) { if (!n) return; free(n->name); free(n); }

int list_add(const char *name) {
    struct node *n = node_new(name);
    if (!n) return -1;
    pthread_mutex_lock(&lock);
    n->next = head;
    head = n;
    pthread_mutex_unlock(&lock);
    return 0;
}

void list_clear(void) {
    pthread_mutex_lock(&lock);
    struct node *n = head;
    while (n) {
        struct node *next = n->next;
        node_free(n);
        n = next;
    }
    head = NULL;
    pthread_mutex_unlock(&lock);
}

char *read_file(const char *path, size_t *len_out) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) goto fail;
    len = ftell(f);
    if (len < 0) goto fail;
    rewind(f);
    buf = malloc((size_t)len + 1);
    if (!buf) goto fail;
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) goto fail;
    buf[len] = '\0';
    fclose(f);
    *len_out = (size_t)len;
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

int count_lines(const char *path) {
    size_t len = 0;
    char *text = read_file(path, &len);
    int lines = 0;
    if (!text) return -1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') lines++;
    free(text);
    return lines;
}

int sum(const int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

int parse(const char *s, int *out) {
    int value;
    int sign = 1;
    if (*s == '-') { sign = -1; s++; }
    if (sscanf(s, "%d", &value) != 1) return -1;
    *out = sign * value;
    return 0;
}

int classify(int c) {
    int kind;
    switch (c) {
    case 0: kind = 1; break;
    case 1: kind = 2; break;
    default: kind = 3; break;
    }
    return kind;
}

void process(int n, int verbose) {
    char *scratch = NULL;
    int have = 0;
    if (n > 10) {
        scratch = malloc(n);
        if (!scratch) return;
        have = 1;
    }
    if (verbose) printf("n=%d\n", n);
    if (have) {
        memset(scratch, 0, n);
        free(scratch);
    }
}

char *dupcat(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *r = malloc(la + lb + 1);
    if (!r) return NULL;
    memcpy(r, a, la);
    memcpy(r + la, b, lb + 1);
    return r;
}

int use_dupcat(void) {
    char *s = dupcat("a", "b");
    int n;
    if (s == NULL) return -1;
    n = (int)strlen(s);
    free(s);
    return n;
}

int bug_leak(void) {
    char *s = dupcat("a", "b");       /* BUG: leaked when strlen > 3 */
    if (!s) return -1;
    if (strlen(s) > 3) return 1;
    free(s);
    return 0;
}

void bug_uaf(void) {
    struct node *n = node_new("x");
    if (!n) return;
    node_free(n);
    printf("%s\n", n->name);          /* BUG: use after free */
}
