struct session { int id; char *user; };
void session_end(struct session *s);
