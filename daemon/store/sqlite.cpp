#include "daemon/store/sqlite.hpp"

#include <sqlite3.h>

namespace vivaref::store {

namespace {

[[noreturn]] void fail(sqlite3* db, int code, std::string_view doing) {
    std::string what(doing);
    what += ": ";
    what += db ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    throw SqliteError(db ? sqlite3_extended_errcode(db) : code, what);
}

}  // namespace

bool SqliteError::isFull() const { return primaryCode() == SQLITE_FULL; }

bool SqliteError::isTransient() const {
    const int c = primaryCode();
    return c == SQLITE_FULL || c == SQLITE_IOERR || c == SQLITE_BUSY || c == SQLITE_LOCKED ||
           c == SQLITE_READONLY || c == SQLITE_CANTOPEN;
}

bool SqliteError::isCorrupt() const {
    const int c = primaryCode();
    return c == SQLITE_CORRUPT || c == SQLITE_NOTADB;
}

void Statement::Finalizer::operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    stmt_.reset(raw);
    if (rc != SQLITE_OK) fail(db, rc, "preparing a statement");
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (int rc = sqlite3_bind_int64(stmt_.get(), index, value); rc != SQLITE_OK) fail(db_, rc, "binding");
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    if (int rc = sqlite3_bind_text(stmt_.get(), index, text.data(), static_cast<int>(text.size()),
                                   SQLITE_TRANSIENT);
        rc != SQLITE_OK)
        fail(db_, rc, "binding");
    return *this;
}

Statement& Statement::bind(int index, std::optional<std::int64_t> value) {
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindNull(int index) {
    if (int rc = sqlite3_bind_null(stmt_.get(), index); rc != SQLITE_OK) fail(db_, rc, "binding");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    // Keep the statement usable for a retry after a transient failure.
    sqlite3_reset(stmt_.get());
    fail(db_, rc, "running a statement");
}

void Statement::reset() {
    sqlite3_reset(stmt_.get());
    sqlite3_clear_bindings(stmt_.get());
}

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL; }
std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_.get(), column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_.get(), column); }

std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_.get(), column);
    const int n = sqlite3_column_bytes(stmt_.get(), column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

std::optional<std::int64_t> Statement::optionalInteger(int column) const {
    if (isNull(column)) return std::nullopt;
    return integer(column);
}

void Database::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

Database::Database(const std::filesystem::path& file, Mode mode) : file_(file) {
    sqlite3* raw = nullptr;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (mode == Mode::ReadWriteCreate) flags |= SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(file.c_str(), &raw, flags, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) fail(raw, rc, "opening");
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, 5000);
}

void Database::exec(std::string_view sql) {
    std::string text(sql);
    char* message = nullptr;
    const int rc = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string what = message ? message : sqlite3_errstr(rc);
        sqlite3_free(message);
        throw SqliteError(sqlite3_extended_errcode(db_.get()), what);
    }
}

std::int64_t Database::queryInteger(std::string_view sql) {
    Statement s = prepare(sql);
    return s.step() ? s.integer(0) : 0;
}

std::string Database::queryText(std::string_view sql) {
    Statement s = prepare(sql);
    return s.step() ? s.text(0) : std::string();
}

std::int64_t Database::lastInsertRowid() const { return sqlite3_last_insert_rowid(db_.get()); }
bool Database::inTransaction() const { return sqlite3_get_autocommit(db_.get()) == 0; }

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_ && db_.inTransaction()) {
        try {
            db_.exec("ROLLBACK");
        } catch (const SqliteError&) {
            // sqlite may have rolled back by itself (a full disk); nothing to undo.
        }
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace vivaref::store
