#include <stdlib.h>
#include <unistd.h>

int daemonize(const char *root)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid > 0)
        exit(0);
    setsid();
    if (chdir(root) != 0)
        return -1;
    return 0;
}
