// A vector whose elements live inside it, up to a capacity fixed at compile
// time: a round's score sheets, kings and scores are rebuilt at every
// coronation and copied at every round's end, and random play and the
// search's playouts must not allocate for that. Only the elements held are
// constructed and copied.
#pragma once

#include <cassert>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace vivaref::engine {

template <typename T, int Capacity>
class BoundedVector {
public:
    using value_type = T;
    using size_type = std::size_t;
    using iterator = T*;
    using const_iterator = const T*;
    static constexpr int kCapacity = Capacity;

    BoundedVector() {}
    BoundedVector(const BoundedVector& other) { append(other); }
    BoundedVector(BoundedVector&& other) noexcept(std::is_nothrow_move_constructible_v<T>) {
        for (auto& x : other) emplace_back(std::move(x));
    }
    BoundedVector& operator=(const BoundedVector& other) {
        if (this != &other) {
            clear();
            append(other);
        }
        return *this;
    }
    BoundedVector& operator=(BoundedVector&& other) noexcept(std::is_nothrow_move_constructible_v<T>) {
        if (this != &other) {
            clear();
            for (auto& x : other) emplace_back(std::move(x));
        }
        return *this;
    }
    ~BoundedVector() { clear(); }

    size_type size() const { return static_cast<size_type>(size_); }
    bool empty() const { return size_ == 0; }
    static constexpr size_type capacity() { return Capacity; }

    T& operator[](size_type i) { return items_[i]; }
    const T& operator[](size_type i) const { return items_[i]; }
    T& front() { return items_[0]; }
    const T& front() const { return items_[0]; }
    T& back() { return items_[size_ - 1]; }
    const T& back() const { return items_[size_ - 1]; }
    T* data() { return items_; }
    const T* data() const { return items_; }
    iterator begin() { return items_; }
    iterator end() { return items_ + size_; }
    const_iterator begin() const { return items_; }
    const_iterator end() const { return items_ + size_; }

    // With no arguments a class type is default-initialised (its member
    // initialisers run), not value-initialised: that would first zero the
    // whole object, and a coronation's score (four sheets of nine lines
    // each, mostly unused capacity) is about 2 KB. A scalar is still zeroed.
    template <typename... Args>
    T& emplace_back(Args&&... args) {
        assert(size_ < Capacity);
        T* item;
        if constexpr (sizeof...(Args) == 0 && std::is_class_v<T>)
            item = ::new (static_cast<void*>(items_ + size_)) T;
        else
            item = ::new (static_cast<void*>(items_ + size_)) T(std::forward<Args>(args)...);
        ++size_;
        return *item;
    }
    void push_back(const T& x) { emplace_back(x); }
    void push_back(T&& x) { emplace_back(std::move(x)); }
    void pop_back() { std::destroy_at(items_ + --size_); }
    void clear() {
        if constexpr (!std::is_trivially_destructible_v<T>)
            for (int i = 0; i < size_; ++i) std::destroy_at(items_ + i);
        size_ = 0;
    }
    // `n` new elements (after the ones kept), made as emplace_back() makes them.
    void resize(size_type n) {
        while (size() > n) pop_back();
        while (size() < n) emplace_back();
    }
    void assign(size_type n, const T& x) {
        clear();
        while (size() < n) emplace_back(x);
    }

    friend bool operator==(const BoundedVector& a, const BoundedVector& b) {
        if (a.size_ != b.size_) return false;
        for (int i = 0; i < a.size_; ++i)
            if (!(a.items_[i] == b.items_[i])) return false;
        return true;
    }

    // A round's kings and scores were std::vector once: callers still
    // compare them with vectors and copy them into one.
    friend bool operator==(const BoundedVector& a, const std::vector<T>& b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size_; ++i)
            if (!(a.items_[i] == b[static_cast<std::size_t>(i)])) return false;
        return true;
    }
    operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

private:
    void append(const BoundedVector& other) {
        for (const auto& x : other) emplace_back(x);
    }

    // Left unconstructed beyond size_.
    union {
        T items_[Capacity];
    };
    int size_ = 0;
};

}  // namespace vivaref::engine
