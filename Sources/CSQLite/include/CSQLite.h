// The SQLite C functions and constants ContentLoadingKit uses on Linux, declared here so that
// the kit builds without sqlite3.h (the libsqlite3-dev package): the official Swift images
// ship only the library, libsqlite3.so.0. Each function calls through a table that
// clk_sqlite3_load() fills from that library at run time (dlopen), so a machine without it
// gets a clear error, not a link failure. The declarations follow SQLite's stable C API
// (https://sqlite.org/c3ref/intro.html); on Apple platforms the kit imports SQLite3 instead.
#ifndef CONTENT_LOADING_KIT_CSQLITE_H
#define CONTENT_LOADING_KIT_CSQLITE_H

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef long long int sqlite3_int64;
typedef void (*sqlite3_destructor_type)(void *);

#define SQLITE_OK 0
#define SQLITE_ERROR 1
#define SQLITE_BUSY 5
#define SQLITE_LOCKED 6
#define SQLITE_NOMEM 7
#define SQLITE_READONLY 8
#define SQLITE_IOERR 10
#define SQLITE_FULL 13
#define SQLITE_MISUSE 21
#define SQLITE_ROW 100
#define SQLITE_DONE 101
#define SQLITE_NULL 5
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_NOMUTEX 0x00008000
#define SQLITE_FCNTL_HAS_MOVED 20

/// The entry points bound from the library.
struct clk_sqlite3_api {
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close_v2)(sqlite3 *);
    const char *(*errmsg)(sqlite3 *);
    int (*busy_timeout)(sqlite3 *, int);
    int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    void (*free)(void *);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*step)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*clear_bindings)(sqlite3_stmt *);
    int (*bind_null)(sqlite3_stmt *, int);
    int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
    int (*bind_double)(sqlite3_stmt *, int, double);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*bind_blob)(sqlite3_stmt *, int, const void *, int, void (*)(void *));
    int (*column_type)(sqlite3_stmt *, int);
    int (*column_bytes)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
    double (*column_double)(sqlite3_stmt *, int);
    const void *(*column_blob)(sqlite3_stmt *, int);
    const char *(*libversion)(void);
    int (*libversion_number)(void);
    int (*file_control)(sqlite3 *, const char *, int, void *);
};

/// The table; filled by clk_sqlite3_load(). Read it only after that returned NULL.
extern struct clk_sqlite3_api clk_sqlite3;

/// Loads the system SQLite library once: NULL when every entry point is bound, otherwise a
/// message naming the library and what failed.
const char *clk_sqlite3_load(void);

static inline int sqlite3_open_v2(const char *path, sqlite3 **db, int flags, const char *vfs) {
    return clk_sqlite3.open_v2(path, db, flags, vfs);
}
static inline int sqlite3_close_v2(sqlite3 *db) { return clk_sqlite3.close_v2(db); }
static inline const char *sqlite3_errmsg(sqlite3 *db) { return clk_sqlite3.errmsg(db); }
static inline int sqlite3_busy_timeout(sqlite3 *db, int ms) { return clk_sqlite3.busy_timeout(db, ms); }
static inline int sqlite3_exec(
    sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error) {
    return clk_sqlite3.exec(db, sql, callback, context, error);
}
static inline void sqlite3_free(void *pointer) { clk_sqlite3.free(pointer); }
static inline int sqlite3_prepare_v2(
    sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail) {
    return clk_sqlite3.prepare_v2(db, sql, bytes, statement, tail);
}
static inline int sqlite3_step(sqlite3_stmt *statement) { return clk_sqlite3.step(statement); }
static inline int sqlite3_reset(sqlite3_stmt *statement) { return clk_sqlite3.reset(statement); }
static inline int sqlite3_finalize(sqlite3_stmt *statement) { return clk_sqlite3.finalize(statement); }
static inline int sqlite3_clear_bindings(sqlite3_stmt *statement) { return clk_sqlite3.clear_bindings(statement); }
static inline int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return clk_sqlite3.bind_null(statement, index);
}
static inline int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return clk_sqlite3.bind_int64(statement, index, value);
}
static inline int sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) {
    return clk_sqlite3.bind_double(statement, index, value);
}
static inline int sqlite3_bind_text(
    sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)) {
    return clk_sqlite3.bind_text(statement, index, text, bytes, destructor);
}
static inline int sqlite3_bind_blob(
    sqlite3_stmt *statement, int index, const void *blob, int bytes, void (*destructor)(void *)) {
    return clk_sqlite3.bind_blob(statement, index, blob, bytes, destructor);
}
static inline int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_type(statement, column);
}
static inline int sqlite3_column_bytes(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_bytes(statement, column);
}
static inline const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_text(statement, column);
}
static inline sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_int64(statement, column);
}
static inline double sqlite3_column_double(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_double(statement, column);
}
static inline const char *sqlite3_libversion(void) { return clk_sqlite3.libversion(); }
static inline int sqlite3_libversion_number(void) { return clk_sqlite3.libversion_number(); }
static inline int sqlite3_file_control(sqlite3 *db, const char *name, int operation, void *argument) {
    return clk_sqlite3.file_control(db, name, operation, argument);
}
static inline const void *sqlite3_column_blob(sqlite3_stmt *statement, int column) {
    return clk_sqlite3.column_blob(statement, column);
}

#endif
