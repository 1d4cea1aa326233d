#include <stdlib.h>
#include <string.h>

/* Allocates a copy of the first word of s into *out. */
static int first_word(const char *s, char **out)
{
    size_t n = strcspn(s, " ");
    char *w = malloc(n + 1);
    if (w == NULL)
        return -1;
    memcpy(w, s, n);
    w[n] = '\0';
    *out = w;
    return 0;
}

int starts_with_cmd(const char *line)
{
    char *word;
    if (first_word(line, &word) != 0)
        return -1;
    int is_cmd = strcmp(word, "cmd") == 0;
    free(word);
    return is_cmd;
}
