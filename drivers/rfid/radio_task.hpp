// A piece of an MFRC522 scan written as a C++20 coroutine, so that the scan
// can stop wherever it waits for the radio (a frame on air, a tag's frame
// delay, the chip's timer) and give the SPI bus back to the caller, who may
// talk to other chips meanwhile and resume this one once its wait is over.
//
// A RadioTask starts when first awaited (or resumed by its owner) and hands
// its value to the coroutine that awaits it; a radio wait (RadioWait)
// suspends the whole chain of awaiting tasks at once and returns to whoever
// resumed it, leaving behind the innermost coroutine to resume and how long
// the radio needs. Nothing here reads a clock or sleeps: the caller decides
// when to resume.
#pragma once

#include <cassert>
#include <chrono>
#include <coroutine>
#include <exception>
#include <optional>
#include <utility>

namespace vivaref::drivers::mfrc522 {

// Where a scan stopped: the coroutine to resume, and how long from the
// moment it stopped the radio needs before the chip can tell what happened.
struct RadioPause {
    std::coroutine_handle<> resume;
    std::chrono::microseconds wait{0};
};

// co_await RadioWait{pause, d}: stop here for `d` of radio time.
struct RadioWait {
    RadioPause& pause;
    std::chrono::microseconds wait;

    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> self) noexcept {
        pause.resume = self;
        pause.wait = wait;
    }
    void await_resume() const noexcept {}
};

template <class T>
class [[nodiscard]] RadioTask {
public:
    struct promise_type {
        std::optional<T> value;
        std::coroutine_handle<> awaiting;  // the task that co_awaits this one, if any
        std::exception_ptr failure;

        RadioTask get_return_object() {
            return RadioTask(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        // Done: straight back into the awaiting task (symmetric transfer), or to the owner's resume().
        auto final_suspend() noexcept {
            struct BackToAwaiting {
                bool await_ready() noexcept { return false; }
                std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> self) noexcept {
                    auto next = self.promise().awaiting;
                    return next ? next : std::noop_coroutine();
                }
                void await_resume() noexcept {}
            };
            return BackToAwaiting{};
        }
        void return_value(T v) { value.emplace(std::move(v)); }
        void unhandled_exception() { failure = std::current_exception(); }
    };

    RadioTask(RadioTask&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    RadioTask& operator=(RadioTask&& other) noexcept {
        if (this != &other) {
            if (handle_) handle_.destroy();
            handle_ = std::exchange(other.handle_, {});
        }
        return *this;
    }
    RadioTask(const RadioTask&) = delete;
    RadioTask& operator=(const RadioTask&) = delete;
    // Destroying a task stopped at a radio wait destroys the tasks it awaits too.
    ~RadioTask() {
        if (handle_) handle_.destroy();
    }

    // As the owner: the first run, up to the first radio wait or the end.
    void start() {
        assert(handle_ && !handle_.done());
        handle_.resume();
    }
    bool done() const { return handle_ && handle_.done(); }
    // As the owner, once done().
    T take() {
        assert(done());
        if (handle_.promise().failure) std::rethrow_exception(handle_.promise().failure);
        return std::move(*handle_.promise().value);
    }

    // As a step of another task: co_await runs it and gives its value.
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        handle_.promise().awaiting = awaiting;
        return handle_;
    }
    T await_resume() { return take(); }

private:
    explicit RadioTask(std::coroutine_handle<promise_type> handle) : handle_(handle) {}

    std::coroutine_handle<promise_type> handle_;
};

}  // namespace vivaref::drivers::mfrc522
