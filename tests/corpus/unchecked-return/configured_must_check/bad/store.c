int kv_put(void *db, const char *k, const char *v);
int kv_commit(void *db);

void save_setting(void *db, const char *k, const char *v)
{
    kv_put(db, k, v);
    kv_commit(db); /* BUG(unchecked-return) */
}
