// Binds the SQLite entry points of CSQLite.h from the system library at run time.
#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct clk_sqlite3_api clk_sqlite3;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *outcome = "the system SQLite library was not loaded";

/// The library's names, most specific first: the runtime package ships only the first.
static const char *const libraries[] = {"libsqlite3.so.0", "libsqlite3.so"};

static void load(void) {
    void *library = NULL;
    for (unsigned index = 0; index < sizeof libraries / sizeof *libraries && !library; index++) {
        library = dlopen(libraries[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        snprintf(failure, sizeof failure,
            "the system SQLite library (libsqlite3.so.0) could not be loaded: %s; install it "
            "(Debian and Ubuntu: apt-get install libsqlite3-0)", dlerror());
        outcome = failure;
        return;
    }
#define BIND(field)                                                                                    \
    do {                                                                                               \
        void *symbol = dlsym(library, "sqlite3_" #field);                                             \
        if (!symbol) {                                                                                 \
            snprintf(failure, sizeof failure, "the system SQLite library (libsqlite3.so.0) has no %s", \
                "sqlite3_" #field);                                                                    \
            outcome = failure;                                                                         \
            return;                                                                                    \
        }                                                                                              \
        *(void **)&clk_sqlite3.field = symbol;                                                         \
    } while (0)
    BIND(open_v2);
    BIND(close_v2);
    BIND(errmsg);
    BIND(busy_timeout);
    BIND(exec);
    BIND(free);
    BIND(prepare_v2);
    BIND(step);
    BIND(reset);
    BIND(finalize);
    BIND(clear_bindings);
    BIND(bind_null);
    BIND(bind_int64);
    BIND(bind_double);
    BIND(bind_text);
    BIND(bind_blob);
    BIND(column_type);
    BIND(column_bytes);
    BIND(column_text);
    BIND(column_int64);
    BIND(column_double);
    BIND(column_blob);
    BIND(libversion);
    BIND(libversion_number);
    BIND(file_control);
#undef BIND
    outcome = NULL;
}

const char *clk_sqlite3_load(void) {
    pthread_once(&once, load);
    return outcome;
}
