/* An event loop's poll: when idle time is measured, the first poll does not block and the caller's
 * timeout is kept aside until it returns. */
int poll_events(int timeout);

int run_once(int timeout, int measure_idle)
{
    int saved_timeout;
    int resume;
    int n;

    if (measure_idle) {
        resume = 1;
        saved_timeout = timeout;
        timeout = 0;
    } else {
        resume = 0;
    }
    n = poll_events(timeout);
    if (n == 0) {
        int next = resume ? saved_timeout : timeout;
        return poll_events(next);
    }
    return n;
}
