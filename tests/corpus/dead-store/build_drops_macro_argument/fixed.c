/* A test build makes SimulateIOError's argument run now and then; every other build compiles it
   out.  Either way the result of fsync_file is read by the test after the macro. */
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
    rc = fsync_file(fd);
    SimulateIOError(rc = 1);
    if (rc) {
        log_error(fd);
        return 1;
    }
    return 0;
}
