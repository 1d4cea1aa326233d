int kv_put(void *db, const char *k, const char *v);
int kv_commit(void *db);

int save_setting(void *db, const char *k, const char *v)
{
    kv_put(db, k, v);
    return kv_commit(db);
}
