"""A multi-file C project for the batch tests: interprocedural bugs, a recursive pair, many functions.

``util.c`` holds helpers the other files call (a free, an allocating copy, a struct release and a pair
of mutually recursive functions that free on one path); ``big.c`` is ``n`` functions cycling through
the kinds below (leaks, double frees through ``release``, use after free through the recursive
pair, a file handle leak, a static allocating helper and its caller, clean ones), so that witnesses
enter callees in other files and a file has enough functions to be split into several units;
``small.c`` is a few more of the same.
"""

from __future__ import annotations

from pathlib import Path

UTIL = r'''#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct buf { char *data; size_t len; };

void release(char *p)
{
    free(p);
}

char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    return d;
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
}

int walk_even(char *p, int n);

int walk_odd(char *p, int n)
{
    if (n <= 0) {
        free(p);
        return 0;
    }
    return walk_even(p, n - 1);
}

int walk_even(char *p, int n)
{
    if (n <= 0)
        return 1;
    return walk_odd(p, n - 1);
}
'''

KINDS = [
    # leak on an early return
    '''int work_{i}(int n)
{{
    char *q = malloc({sz});
    if (q == NULL)
        return -1;
    if (n > {sz})
        return 1;
    q[0] = (char)n;
    free(q);
    return 0;
}}
''',
    # double free through a callee in another file
    '''void twice_{i}(void)
{{
    char *p = malloc({sz});
    if (p == NULL)
        return;
    release(p);
    free(p);
}}
''',
    # clean
    '''int fine_{i}(int n)
{{
    char *q = dup_text("abc");
    if (q == NULL)
        return -1;
    q[0] = (char)n;
    release(q);
    return 0;
}}
''',
    # use after free through the recursive pair
    '''int cycle_{i}(int n)
{{
    char *p = malloc({sz});
    if (p == NULL)
        return -1;
    walk_odd(p, n);
    p[0] = 1;
    free(p);
    return 0;
}}
''',
    # file handle leak
    '''int readf_{i}(const char *path)
{{
    FILE *f = fopen(path, "r");
    char line[{sz}];
    if (f == NULL)
        return -1;
    if (fgets(line, sizeof line, f) == NULL)
        return -2;
    fclose(f);
    return 0;
}}
''',
    # callee chain in the same file (helper i calls helper i-1)
    '''static char *make_{i}(int n)
{{
    char *p = dup_text("x");
    if (n > 0 && p != NULL)
        p[0] = 'y';
    return p;
}}

int chain_{i}(int n)
{{
    char *p = make_{i}(n);
    if (n > 2)
        return n;
    release(p);
    return 0;
}}
''',
]



def _functions(prefix: str, n: int) -> str:
    head = (
        "#include <stdlib.h>\n#include <stdio.h>\n\n"
        "void release(char *p);\nchar *dup_text(const char *s);\nint walk_odd(char *p, int n);\n\n"
    )
    body = "\n".join(KINDS[i % len(KINDS)].format(i=f"{prefix}{i}", sz=8 + i) for i in range(n))
    return head + body


def write_project(root: Path, n: int = 60) -> Path:
    """The project under ``root`` (created); returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "util.c").write_text(UTIL)
    (root / "big.c").write_text(_functions("", n))
    (root / "small.c").write_text(_functions("s", 6))
    return root
