/* The error path logs the port that parse_port never set. */
#include <stdio.h>
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

int open_port(const char *s)
{
    int port;
    int rc = parse_port(s, &port);
    if (rc != 0) {
        fprintf(stderr, "bad port %d\n", port); /* BUG(uninitialised-read) */
        return -1;
    }
    return port;
}
