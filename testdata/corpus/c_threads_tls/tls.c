/* TLS variables defined here and used from main.c: initialised (.tdata) and zero (.tbss). */
__thread int tls_counter = 1000;
__thread long tls_zero;
__thread char tls_name[16] = "init";

int *counter_addr(void) { return &tls_counter; }
void bump(int n) {
    for (int i = 0; i < n; ++i) {
        tls_counter++;
        tls_zero += 2;
    }
}
