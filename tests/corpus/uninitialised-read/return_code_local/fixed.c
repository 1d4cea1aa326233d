/* The result code, kept in a local and tested next, says whether parse_port set the port. */
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
        fprintf(stderr, "bad port %s\n", s);
        return -1;
    }
    return port;
}
