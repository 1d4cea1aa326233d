/* A file-scope allocator state (SQLite's mem3 keeps one like it): storing one field leaves the
 * others as they were, so only a store of the whole struct can be overwritten unseen. */
struct key_block {
    unsigned index;
    unsigned size;
    unsigned low_water;
};

static struct key_block key;
static const struct key_block empty_key = { 0, 0, 0 };

void *checkout(unsigned index, unsigned size);

void *take_key_block(unsigned blocks)
{
    void *p;
    if (blocks + 1 < key.size)
        return 0;
    p = checkout(key.index, key.size);
    key = empty_key; /* BUG(dead-store) */
    key.index = 0;
    key.size = 0;
    key.low_water = 0;
    key = empty_key;
    return p;
}
