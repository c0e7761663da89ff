// GpioLines in memory, for the unit tests of what sits on top of the lines
// (debouncing, difference-only writes). The libgpiod backend itself is tested
// against the kernel's gpio-sim (gpio_sim_tests.cpp), not against this.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <system_error>
#include <utility>
#include <vector>

#include "drivers/gpio/gpio_chip.hpp"

namespace vivaref::drivers::testing {

class MemoryGpioLines final : public GpioLines {
public:
    struct Input {
        Polarity polarity = Polarity::ActiveHigh;
        Bias bias = Bias::AsIs;
        bool level = false;  // what readLevel() answers
        std::vector<LineEdge> queued;
        std::error_code readFailure;  // returned by the next readEdges(), after the queue
        int fd = -1;
        int reads = 0;
    };
    struct Output {
        Polarity polarity = Polarity::ActiveHigh;
        bool level = false;
        std::vector<bool> writes;      // every write, in order
        std::error_code writeFailure;  // every write fails while set
    };

    // Set before the line is requested: its level at start-up.
    void setLevel(const LineAddress& line, bool active) { inputFor(line)->level = active; }
    void queueEdge(const LineAddress& line, bool active, Timestamp at) {
        inputFor(line)->queued.push_back({active, at});
        inputFor(line)->level = active;
    }
    Input& input(const LineAddress& line) { return *inputFor(line); }
    Output& output(const LineAddress& line) { return *outputs_.at(line); }

    std::unique_ptr<EdgeInputLine> requestEdges(const LineAddress& line, Polarity polarity,
                                                Bias bias) override {
        claim(line);
        std::shared_ptr<Input> state = inputFor(line);
        state->polarity = polarity;
        state->bias = bias;
        state->fd = nextFd_++;
        return std::make_unique<Line>(state);
    }

    std::unique_ptr<OutputLine> requestOutput(const LineAddress& line, Polarity polarity,
                                              bool initiallyActive) override {
        claim(line);
        auto state = std::make_shared<Output>();
        state->polarity = polarity;
        state->level = initiallyActive;
        outputs_[line] = state;
        return std::make_unique<Driven>(state);
    }

private:
    class Line final : public EdgeInputLine {
    public:
        explicit Line(std::shared_ptr<Input> state) : state_(std::move(state)) {}
        int eventDescriptor() const override { return state_->fd; }
        std::error_code readEdges(std::vector<LineEdge>& edges) override {
            ++state_->reads;
            edges.insert(edges.end(), state_->queued.begin(), state_->queued.end());
            state_->queued.clear();
            return std::exchange(state_->readFailure, {});
        }
        std::error_code readLevel(bool& active) override {
            active = state_->level;
            return {};
        }

    private:
        std::shared_ptr<Input> state_;
    };

    class Driven final : public OutputLine {
    public:
        explicit Driven(std::shared_ptr<Output> state) : state_(std::move(state)) {}
        std::error_code write(bool active) override {
            state_->writes.push_back(active);
            if (state_->writeFailure) return state_->writeFailure;
            state_->level = active;
            return {};
        }

    private:
        std::shared_ptr<Output> state_;
    };

    void claim(const LineAddress& line) {
        if (!claimed_.insert(line).second) {
            throw std::system_error(std::make_error_code(std::errc::device_or_resource_busy),
                                    describeLine(line) + ": already in use");
        }
    }
    std::shared_ptr<Input> inputFor(const LineAddress& line) {
        std::shared_ptr<Input>& state = inputs_[line];
        if (!state) state = std::make_shared<Input>();
        return state;
    }

    std::map<LineAddress, std::shared_ptr<Input>> inputs_;
    std::map<LineAddress, std::shared_ptr<Output>> outputs_;
    std::set<LineAddress> claimed_;
    int nextFd_ = 100;  // never a real descriptor: only compared
};

}  // namespace vivaref::drivers::testing
