void cfg_lock(void);
void cfg_unlock(void);

static int cfg_level;

int cfg_set_level(int level)
{
    cfg_lock();
    if (level > 9)
        return -1; /* BUG(lock-not-released) */
    cfg_level = level;
    cfg_unlock();
    return 0;
}
