/* The result of fsync_file is overwritten in every build: the macro's store is no read. */
int fsync_file(int fd);
void log_error(int fd);

#if defined(TEST_IO_ERRORS)
extern int io_error_pending;
# define SimulateIOError(CODE) if (io_error_pending-- == 1) { CODE; }
#else
# define SimulateIOError(CODE)
#endif

int sync_file(int fd)
{
    int rc;
    rc = fsync_file(fd); /* BUG(dead-store) */
    SimulateIOError(rc = 1);
    rc = fsync_file(fd + 1);
    if (rc) {
        log_error(fd);
        return 1;
    }
    return 0;
}
