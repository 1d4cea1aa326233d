struct stream { int pos; int len; int eof; };

void stream_rewind(struct stream *s, int keep_len)
{
    s->eof = 0;
    s->pos = 0;
    if (!keep_len)
        s->len = 0;
}
