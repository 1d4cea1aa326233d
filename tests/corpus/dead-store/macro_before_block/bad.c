/* The result of the read in the block is overwritten before anything reads it. */
typedef struct Wal { int nTry; } Wal;
int wal_read(Wal *w, int *changed);
int wal_exception(Wal *w);

#ifdef USE_SEH
# define SEH_TRY __try { w->nTry++;
# define SEH_EXCEPT(X) w->nTry--; } __except (1) { X }
#else
# define SEH_TRY w->nTry++;
# define SEH_EXCEPT(X) w->nTry--;
#endif

int begin_read(Wal *w, int *changed)
{
    int rc;
    SEH_TRY {
        rc = wal_read(w, changed); /* BUG(dead-store) */
        rc = 0;
    }
    SEH_EXCEPT( rc = wal_exception(w); )
    return rc;
}
