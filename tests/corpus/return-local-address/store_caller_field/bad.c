#include <string.h>

struct request { const char *method; const char *path; };

int parse_request(struct request *req, const char *line)
{
    char method[8];
    size_t n = strcspn(line, " ");
    if (n >= sizeof method)
        return -1;
    memcpy(method, line, n);
    method[n] = '\0';
    req->method = method; /* BUG(return-local-address) */
    req->path = line + n + 1;
    return 0;
}
