struct buf { char *data; int len; };

int buf_len(struct buf *b)
{
    struct buf *cur = b;
    if (!cur)
        return b->len; /* BUG(known-null-dereference) */
    return cur->len;
}
