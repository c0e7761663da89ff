// Tag enrolment from the host's page: the enrolment of `vivaref enrol`
// (daemon/enrol/enrolment.hpp, the same rules and sentences) fed with the
// raw scans of the castle the daemon runs, real or simulated, and driven by
// the host's requests (GET/POST /api/host/enrol, web-ui/API.md). It saves
// the tag registry (tags.json) after each tag, as the command does.
//
// It knows nothing of the castle: whoever runs the table hands it every raw
// scan (onScan), before sensing. It ignores them unless an enrolment runs.
// On the simulated castle nobody can put a tag down: the host's page does,
// through the simulated castle's own API, on `demoPlace`.
//
// An enrolment may not start while a game is played or paused (the referee
// would judge the tags put down); the caller says whether one is.
#pragma once

#include <cstddef>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "daemon/enrol/enrolment.hpp"
#include "daemon/server/referee_service.hpp"
#include "drivers/sensing/tag_registry_file.hpp"

namespace vivaref::server {

struct HostEnrolmentSettings {
    std::string edition = "classic";                 // the castle's: "classic" or "2024"
    std::filesystem::path registry;                  // tags.json
    engine::Message where{"enrol.where-any-floor"};  // "on any floor of the castle"
    // The simulated castle: where the page puts the demo's tags. Empty on a real castle.
    std::string demoPlace;
    std::size_t eventsKept = 40;  // the latest events shown on the page
};

class HostEnrolment {
public:
    explicit HostEnrolment(HostEnrolmentSettings settings);

    // Every raw scan of every reader, at the table's time.
    void onScan(const drivers::ReaderId& reader, const drivers::ScanResult& result, drivers::Timestamp at);

    // "state" (GET): what the page shows. POST {"action": ...}:
    //   "start" {"edition"?: "classic"|"2024", "missing"?: bool (only characters without a tag)},
    //   "skip" (the character asked for), "stop" (saves and ends).
    // Refusals: 409 game-in-progress, not-running, bad-registry, save-failed; 400 for a malformed body.
    ServiceAnswer request(std::string_view action, const nlohmann::json& body, bool gameInProgress);

    bool running() const { return enrolment_.has_value(); }
    nlohmann::json state() const;

private:
    ServiceAnswer start(const nlohmann::json& body, bool gameInProgress);
    void take(const enrol::EnrolmentEvents& events, drivers::Timestamp at);
    bool save();
    void finish();

    HostEnrolmentSettings settings_;
    std::optional<enrol::Enrolment> enrolment_;
    std::string edition_;  // of the running (or last) enrolment
    drivers::TagRegistries registries_;
    std::deque<nlohmann::json> events_;
    std::int64_t eventCount_ = 0;
    drivers::Timestamp lastScanAt_{0};
    int enrolled_ = 0, kept_ = 0, skipped_ = 0, refused_ = 0;
    bool finished_ = false;  // every character was asked for
    std::string saveProblem_;
};

}  // namespace vivaref::server
