/* z/OS poll(): the count argument packs two counts, which <poll.h>'s _SET_FDS_MSGS macro (a header
 * the checker did not read) stores into its first argument by name. */
#include <poll.h>

int wait_for(struct pollfd *fds, int nfds, int timeout)
{
    nfds_t size;
    if (nfds <= 0)
        return -1;
    _SET_FDS_MSGS(size, 1, nfds - 1);
    return poll(fds, size, timeout);
}
