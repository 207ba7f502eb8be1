int buffer[64];
int shared_counter;
int initialized_elsewhere; /* common here, a real definition in main.c wins */

int *buffer_from_big(void) { return buffer; }
void fill_buffer(void) {
    for (int i = 0; i < 64; ++i)
        buffer[i] = i * 3;
}
void big_bump(void) { shared_counter += 10; }
