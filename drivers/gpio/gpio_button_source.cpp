#include "drivers/gpio/gpio_button_source.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace vivaref::drivers {
namespace {

std::string describeKey(const ButtonLineSpec& spec) {
    return "station " + std::to_string(spec.station.number) + " key " + voteKeyName(spec.key);
}

}  // namespace

GpioButtonSource::GpioButtonSource(const std::vector<ButtonLineSpec>& specs, GpioLines& lines) {
    std::set<std::pair<StationId, VoteKey>> seen;
    for (const ButtonLineSpec& spec : specs) {
        if (!seen.insert({spec.station, spec.key}).second) {
            throw std::invalid_argument(describeKey(spec) + " is given twice (" + describeLine(spec.line) +
                                        ")");
        }
        if (spec.debounce < std::chrono::milliseconds::zero()) {
            throw std::invalid_argument(describeKey(spec) + ": negative debounce window");
        }
    }
    keys_.reserve(specs.size());
    for (const ButtonLineSpec& spec : specs) {
        std::unique_ptr<EdgeInputLine> line = lines.requestEdges(spec.line, spec.polarity, spec.bias);
        bool active = false;
        if (std::error_code error = line->readLevel(active)) {
            throw std::system_error(
                error, describeLine(spec.line) + ": cannot read the level of " + describeKey(spec));
        }
        keys_.push_back({spec, std::move(line), Debouncer(spec.debounce, active)});
    }
}

GpioButtonSource::GpioButtonSource(const std::vector<ButtonLineSpec>& specs)
    : GpioButtonSource(specs, *kernelGpioLines()) {}

std::vector<int> GpioButtonSource::eventDescriptors() const {
    std::vector<int> fds;
    for (const Key& key : keys_) fds.push_back(key.line->eventDescriptor());
    return fds;
}

std::optional<GpioFault> GpioButtonSource::readReady(int fd) {
    for (Key& key : keys_) {
        if (key.line->eventDescriptor() == fd) return readKey(key);
    }
    return std::nullopt;
}

std::vector<GpioFault> GpioButtonSource::advance(Timestamp now) {
    std::vector<GpioFault> faults;
    for (Key& key : keys_) {
        if (std::optional<GpioFault> fault = readKey(key)) faults.push_back(std::move(*fault));
        record(key, key.debouncer.advance(now));
    }
    return faults;
}

std::optional<Timestamp> GpioButtonSource::nextDeadline() const {
    std::optional<Timestamp> next;
    for (const Key& key : keys_) {
        std::optional<Timestamp> deadline = key.debouncer.deadline();
        if (deadline && (!next || *deadline < *next)) next = deadline;
    }
    return next;
}

std::vector<std::pair<StationId, VoteKey>> GpioButtonSource::keysDown() const {
    std::vector<std::pair<StationId, VoteKey>> down;
    for (const Key& key : keys_)
        if (key.debouncer.pressed()) down.emplace_back(key.spec.station, key.spec.key);
    return down;
}

std::vector<ButtonEvent> GpioButtonSource::takeEvents() {
    // Keys may have different windows, so presses are confirmed out of order.
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const ButtonEvent& a, const ButtonEvent& b) { return a.at < b.at; });
    return std::exchange(pending_, {});
}

std::optional<GpioFault> GpioButtonSource::readKey(Key& key) {
    edges_.clear();
    std::error_code error = key.line->readEdges(edges_);
    // Edges read before a failure still count.
    for (const LineEdge& edge : edges_) record(key, key.debouncer.edge(edge.at, edge.active));
    if (error) return GpioFault{describeLine(key.spec.line), error};
    return std::nullopt;
}

void GpioButtonSource::record(const Key& key, std::optional<Timestamp> press) {
    if (press) pending_.push_back({key.spec.station, key.spec.key, *press});
}

}  // namespace vivaref::drivers
