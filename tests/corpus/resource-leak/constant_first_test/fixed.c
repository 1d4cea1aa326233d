#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Counts the configured interfaces; the socket only carries the ioctl. */
int count_interfaces(int *count)
{
    struct ifconf ifc;
    int sockfd;
    int maxsize = 16384;

    *count = 0;
    if (0 > (sockfd = socket(AF_INET, SOCK_DGRAM, 0)))
        return -errno;

    ifc.ifc_req = calloc(1, maxsize);
    if (ifc.ifc_req == NULL) {
        close(sockfd);
        return -ENOMEM;
    }
    ifc.ifc_len = maxsize;
    if (0 > ioctl(sockfd, SIOCGIFCONF, &ifc)) {
        free(ifc.ifc_req);
        close(sockfd);
        return -errno;
    }
    *count = ifc.ifc_len / (int)sizeof(struct ifreq);
    free(ifc.ifc_req);
    close(sockfd);
    return 0;
}
