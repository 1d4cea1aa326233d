#include <string.h>

struct request { char method[8]; const char *path; };

int parse_request(struct request *req, const char *line)
{
    size_t n = strcspn(line, " ");
    if (n >= sizeof req->method)
        return -1;
    memcpy(req->method, line, n);
    req->method[n] = '\0';
    req->path = line + n + 1;
    return 0;
}
