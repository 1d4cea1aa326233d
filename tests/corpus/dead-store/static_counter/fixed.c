static int retries;
static int last_error;

int connect_retry(int (*try_connect)(void))
{
    last_error = 0;
    retries = 3;
    while (retries-- > 0) {
        last_error = try_connect();
        if (last_error == 0)
            return 0;
    }
    return last_error;
}
