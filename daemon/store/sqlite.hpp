// A thin RAII layer over sqlite3's C API: a connection, a prepared
// statement and a transaction, each owning its handle, move-only. Every
// failure throws SqliteError carrying sqlite's extended result code, so the
// store can tell a full disk from a damaged file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace vivaref::store {

class SqliteError : public std::runtime_error {
public:
    SqliteError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
    int code() const { return code_; }  // extended result code
    int primaryCode() const { return code_ & 0xff; }
    // The disk (or the size limit) is full, or the file cannot be written
    // now: the write may succeed later, nothing is wrong with the data.
    bool isTransient() const;
    // The disk (or the size limit) is full.
    bool isFull() const;
    // The file is not a database, or is damaged.
    bool isCorrupt() const;

private:
    int code_;
};

class Statement {
public:
    Statement(sqlite3* db, std::string_view sql);
    Statement(Statement&&) noexcept = default;
    Statement& operator=(Statement&&) noexcept = default;

    // Parameters are 1-based, as in sqlite.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, std::optional<std::int64_t> value);
    Statement& bindNull(int index);
    // True while a row is available; false once done.
    bool step();
    void run() { step(); }
    void reset();

    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::optional<std::int64_t> optionalInteger(int column) const;

private:
    struct Finalizer {
        void operator()(sqlite3_stmt* s) const;
    };
    sqlite3* db_;
    std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
};

class Database {
public:
    enum class Mode { ReadWriteCreate, ReadWrite };
    // Throws SqliteError naming the file when it cannot be opened.
    Database(const std::filesystem::path& file, Mode mode);
    Database(Database&&) noexcept = default;
    Database& operator=(Database&&) noexcept = default;

    const std::filesystem::path& file() const { return file_; }
    void exec(std::string_view sql);
    Statement prepare(std::string_view sql) { return Statement(db_.get(), sql); }
    // The first column of the first row of a one-value query.
    std::int64_t queryInteger(std::string_view sql);
    std::string queryText(std::string_view sql);
    std::int64_t lastInsertRowid() const;
    bool inTransaction() const;

private:
    struct Closer {
        void operator()(sqlite3* db) const;
    };
    std::filesystem::path file_;
    std::unique_ptr<sqlite3, Closer> db_;
};

// BEGIN IMMEDIATE ... COMMIT; rolled back unless committed.
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

}  // namespace vivaref::store
