#include <stdlib.h>

static int parse_port(const char *s, int *port)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v <= 0 || v > 65535)
        return -1;
    *port = (int)v;
    return 0;
}

int port_or_default(const char *s)
{
    int port;
    if (parse_port(s, &port) != 0 && s[0] != '\0')
        return 80;
    return port; /* BUG(uninitialised-read) */
}
