#include <stdlib.h>
#include <string.h>

/* declared in a header of another library: reads the string, keeps nothing */
int log_line(const char *msg);

int report(const char *who, int code)
{
    size_t n = strlen(who) + 32;
    char *msg = malloc(n); /* BUG(memory-leak) */
    if (msg == NULL)
        return -1;
    msg[0] = '\0';
    strncat(msg, who, n - 1);
    if (code != 0)
        strncat(msg, ": failed", n - 1 - strlen(msg));
    return log_line(msg);
}
