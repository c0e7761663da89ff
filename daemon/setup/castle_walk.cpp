#include "daemon/setup/castle_walk.hpp"

#include <algorithm>
#include <utility>

#include "daemon/setup/walk_words.hpp"
#include "drivers/leds/led_names.hpp"

namespace vivaref::setup {

namespace {

using drivers::ReaderIndex;

std::optional<config::GpioLine> lineOf(const std::optional<config::GpioPin>& pin) {
    if (!pin) return std::nullopt;
    return pin->gpio;
}

std::pair<ReaderIndex, ReaderIndex> unordered(ReaderIndex a, ReaderIndex b) {
    return {std::min(a, b), std::max(a, b)};
}

}  // namespace

WalkCastle walkCastleOf(const config::CastleConfig& castle, const drivers::BoardLayout& layout,
                        int simulatedStations) {
    WalkCastle walk;
    for (ReaderIndex r = 0; r < layout.readerCount(); ++r) {
        WalkReader reader{layout.reader(r).name, layout.place(layout.placeOf(r)).name, std::nullopt};
        for (const auto& configured : castle.readers)
            if (configured.name == reader.name) reader.wiring = configured;
        walk.readers.push_back(std::move(reader));
    }
    for (const auto& [place, pin] : castle.placeLeds)
        walk.leds.push_back({drivers::placeLed(drivers::PlaceName{place}), pin.gpio});
    for (const auto& [seat, pin] : castle.turnLeds)
        walk.leds.push_back({drivers::turnLed(drivers::StationId{seat}), pin.gpio});
    for (const auto& s : castle.stations) {
        if (s.led) walk.leds.push_back({drivers::stationLed(drivers::StationId{s.seat}), s.led->gpio});
        const drivers::StationId station{s.seat};
        if (s.yes) walk.keys.push_back({station, drivers::VoteKey::Yes, lineOf(s.yes)});
        if (s.no) walk.keys.push_back({station, drivers::VoteKey::No, lineOf(s.no)});
        if (s.stomachache)
            walk.keys.push_back({station, drivers::VoteKey::Stomachache, lineOf(s.stomachache)});
    }
    if (castle.readers.empty()) {
        // The simulated standard castle: an LED per place, the simulated stations' keys.
        if (walk.leds.empty()) {
            std::set<std::string> places;
            for (const auto& reader : walk.readers)
                if (places.insert(reader.place).second)
                    walk.leds.push_back({drivers::placeLed(drivers::PlaceName{reader.place}), std::nullopt});
        }
        if (walk.keys.empty()) {
            for (int s = 0; s < simulatedStations; ++s) {
                walk.keys.push_back({drivers::StationId{s}, drivers::VoteKey::Yes, std::nullopt});
                walk.keys.push_back({drivers::StationId{s}, drivers::VoteKey::No, std::nullopt});
                if (castle.edition == config::CastleEdition::Vive2024)
                    walk.keys.push_back({drivers::StationId{s}, drivers::VoteKey::Stomachache, std::nullopt});
            }
        }
    }
    return walk;
}

std::map<std::string, std::string> placesSeen(const WalkCastle& castle, const WalkResults& results) {
    std::map<std::string, std::string> places;
    for (const auto& check : results.tags) {
        if (check.skipped || check.seenBy.size() != 1 || check.over >= castle.readers.size()) continue;
        const ReaderIndex seer = *check.seenBy.begin();
        if (seer < castle.readers.size())
            places[castle.readers[seer].name] = castle.readers[check.over].place;
    }
    return places;
}

const char* walkStepName(WalkStep step) {
    switch (step) {
        case WalkStep::Readers:
            return "readers";
        case WalkStep::Leds:
            return "leds";
        case WalkStep::Keys:
            return "keys";
        case WalkStep::Tags:
            return "tags";
        case WalkStep::Done:
            break;
    }
    return "done";
}

std::optional<WalkAnswer> walkAnswerFromName(std::string_view name) {
    if (name == "lit") return WalkAnswer::Lit;
    if (name == "not-lit") return WalkAnswer::NotLit;
    if (name == "skip") return WalkAnswer::Skip;
    if (name == "done") return WalkAnswer::Done;
    return std::nullopt;
}

CastleWalk::CastleWalk(WalkCastle castle, WalkOptions options, ChipOf chipOf, Timestamp now)
    : castle_(std::move(castle)), options_(options), chipOf_(std::move(chipOf)), stepSince_(now) {
    results_.readers.resize(castle_.readers.size());
    lastTags_.resize(castle_.readers.size());
}

void CastleWalk::find(engine::Message finding, engine::Message fix, bool note) {
    findings_.push_back({std::move(finding), std::move(fix), note});
}

int CastleWalk::faults() const {
    return static_cast<int>(
        std::count_if(findings_.begin(), findings_.end(), [](const auto& f) { return !f.note; }));
}

bool CastleWalk::anyTagOnCastle() const {
    return std::any_of(lastTags_.begin(), lastTags_.end(), [this](const drivers::TagSet& tags) {
        return std::any_of(tags.begin(), tags.end(),
                           [this](const auto& tag) { return !ignoredTags_.contains(tag); });
    });
}

// --- inputs -------------------------------------------------------------------

void CastleWalk::scanned(ReaderIndex reader, const drivers::ScanResult& result, Timestamp at) {
    if (reader >= castle_.readers.size() || done()) return;
    advance(at);
    if (!result.ok()) {
        if (step_ == WalkStep::Readers) {
            ++results_.readers[reader].failures;
            ++results_.readers[reader].failuresByKind[result.error().kind];
        }
        return;
    }
    const drivers::TagSet& tags = result.tags();
    if (step_ == WalkStep::Readers) {
        auto& check = results_.readers[reader];
        ++check.scans;
        check.tagsSeen.insert(tags.begin(), tags.end());
        // A tag another reader holds right now: a cross-read.
        for (const auto& tag : tags)
            for (ReaderIndex other = 0; other < lastTags_.size(); ++other)
                if (other != reader && lastTags_[other].contains(tag))
                    crossReads_.insert_or_assign(unordered(reader, other), tag);
    }
    lastTags_[reader] = tags;
    if (step_ == WalkStep::Tags && !tagClearing_) {
        bool sees = false;
        for (const auto& tag : tags) sees = sees || !ignoredTags_.contains(tag);
        if (sees) {
            if (!tagFirstSeen_) tagFirstSeen_ = at;
            results_.tags.back().seenBy.insert(reader);
        }
    }
}

void CastleWalk::pressed(drivers::StationId station, drivers::VoteKey key, Timestamp at) {
    advance(at);
    if (step_ != WalkStep::Keys) return;
    const auto known =
        std::find(castle_.keys.begin(), castle_.keys.end(), WalkKey{station, key, std::nullopt});
    WalkKey pressedKey = known != castle_.keys.end() ? *known : WalkKey{station, key, std::nullopt};
    if (handsOff_) {
        // Nobody touches the keys now: this one answers by itself.
        if (results_.stuckKeys.insert({station, key}).second) {
            auto [finding, fix] = words::keyStuck(pressedKey);
            find(std::move(finding), std::move(fix));
        }
        return;
    }
    if (results_.stuckKeys.contains({station, key})) return;
    finishKey(pressedKey, false, at);
}

bool CastleWalk::answer(WalkAnswer answer, Timestamp now) {
    advance(now);
    switch (step_) {
        case WalkStep::Leds: {
            if (answer == WalkAnswer::Done) return false;
            const WalkLed& led = castle_.leds[item_];
            LedAnswer said = answer == WalkAnswer::Lit      ? LedAnswer::Lit
                             : answer == WalkAnswer::NotLit ? LedAnswer::NotLit
                                                            : LedAnswer::Skipped;
            results_.leds[led.led] = said;
            if (said == LedAnswer::NotLit) {
                auto [finding, fix] = words::ledDark(led);
                find(std::move(finding), std::move(fix));
            }
            if (++item_ >= castle_.leds.size()) startKeys(now);
            return true;
        }
        case WalkStep::Keys:
            if (handsOff_ || (answer != WalkAnswer::Skip && answer != WalkAnswer::Done)) return false;
            // Done: the host pressed it and nothing answered.
            finishKey(std::nullopt, answer == WalkAnswer::Skip, now);
            return true;
        case WalkStep::Tags:
            if (answer != WalkAnswer::Skip && answer != WalkAnswer::Done) return false;
            if (tagClearing_) {
                // Whatever tags stay on the castle are left there: the walk looks past them.
                for (const auto& tags : lastTags_) ignoredTags_.insert(tags.begin(), tags.end());
                if (answer == WalkAnswer::Skip) finishTags();
                advance(now);
                return true;
            }
            // Done: the tag is down and nothing saw it (or it was seen: the moment is cut short).
            finishTag(answer == WalkAnswer::Skip, now);
            return true;
        case WalkStep::Readers:
        case WalkStep::Done:
            break;
    }
    return false;
}

void CastleWalk::advance(Timestamp now) {
    switch (step_) {
        case WalkStep::Readers:
            if (now - stepSince_ >= options_.readersFor) {
                finishReaders();
                startLeds(now);
            }
            break;
        case WalkStep::Keys:
            if (handsOff_ && now - stepSince_ >= options_.handsOffFor) {
                handsOff_ = false;
                // Nobody touches the keys: one that reads pressed is stuck.
                if (keysDown_)
                    for (const auto& [station, key] : keysDown_()) {
                        if (!results_.stuckKeys.insert({station, key}).second) continue;
                        const auto known = std::find(castle_.keys.begin(), castle_.keys.end(),
                                                     WalkKey{station, key, std::nullopt});
                        auto [finding, fix] = words::keyStuck(
                            known != castle_.keys.end() ? *known : WalkKey{station, key, std::nullopt});
                        find(std::move(finding), std::move(fix));
                    }
                item_ = 0;
                nextKey(now);
            } else if (!handsOff_ && now - stepSince_ >= options_.keyWait) {
                finishKey(std::nullopt, false, now);
            }
            break;
        case WalkStep::Tags:
            if (tagClearing_) {
                if (!anyTagOnCastle()) nextTag(now);
            } else if (tagFirstSeen_ && now - *tagFirstSeen_ >= options_.tagSettle) {
                finishTag(false, now);
            }
            break;
        case WalkStep::Leds:
        case WalkStep::Done:
            break;
    }
}

// --- the steps ------------------------------------------------------------------

void CastleWalk::finishReaders() {
    for (ReaderIndex r = 0; r < castle_.readers.size(); ++r) {
        auto& check = results_.readers[r];
        const WalkReader& reader = castle_.readers[r];
        if (chipOf_) check.chip = chipOf_(r);
        auto failed = [&](drivers::ScanErrorKind kind) {
            auto it = check.failuresByKind.find(kind);
            return it == check.failuresByKind.end() ? 0 : it->second;
        };
        std::optional<std::pair<engine::Message, engine::Message>> fault;
        const int garbled = failed(drivers::ScanErrorKind::Protocol);
        const int total = check.scans + check.failures;
        if (check.scans == 0 && failed(drivers::ScanErrorKind::WrongVersion) > 0) {
            fault = words::readerWrongVersion(reader);
        } else if (check.scans == 0 && failed(drivers::ScanErrorKind::Bus) > 0) {
            fault = words::readerBus(reader);
        } else if (garbled > 0 && garbled >= options_.garbledShare * total) {
            fault = words::readerGarbled(reader, garbled, total);
        } else if (check.scans == 0) {
            fault = words::readerSilent(reader);  // no answer, or nothing at all
        } else if (check.failures > 0 && check.failures >= options_.garbledShare * total) {
            fault = words::readerFlaky(reader, check.failures, total);  // answers, but not always
        }
        if (fault) find(fault->first, fault->second);
        if (check.scans == 0) silentReaders_.insert(r);
        if (!fault && check.chip && check.chip->clone) {
            auto [finding, fix] = words::readerClone(reader, *check.chip);
            find(std::move(finding), std::move(fix), true);
        }
    }
    for (const auto& [pair, tag] : crossReads_) {
        if (!reportedPairs_.insert(pair).second) continue;
        auto [finding, fix] =
            words::crossRead(castle_.readers[pair.first], castle_.readers[pair.second], tag);
        find(std::move(finding), std::move(fix));
    }
}

void CastleWalk::startLeds(Timestamp now) {
    step_ = WalkStep::Leds;
    item_ = 0;
    stepSince_ = now;
    if (castle_.leds.empty()) startKeys(now);
}

void CastleWalk::startKeys(Timestamp now) {
    step_ = WalkStep::Keys;
    item_ = 0;
    stepSince_ = now;
    handsOff_ = true;
    if (castle_.keys.empty()) startTags(now);
}

void CastleWalk::nextKey(Timestamp now) {
    // A key that answered untouched is not asked for.
    while (item_ < castle_.keys.size() &&
           results_.stuckKeys.contains({castle_.keys[item_].station, castle_.keys[item_].key}))
        ++item_;
    stepSince_ = now;
    if (item_ >= castle_.keys.size()) startTags(now);
}

void CastleWalk::finishKey(std::optional<WalkKey> answered, bool skipped, Timestamp now) {
    const WalkKey& asked = castle_.keys[item_];
    results_.keys.push_back({asked, answered, skipped});
    if (!skipped && !answered) {
        auto [finding, fix] = words::keySilent(asked);
        find(std::move(finding), std::move(fix));
    } else if (answered && !(*answered == asked)) {
        auto [finding, fix] = words::keyCrossed(asked, *answered);
        find(std::move(finding), std::move(fix));
    }
    ++item_;
    nextKey(now);
}

void CastleWalk::startTags(Timestamp now) {
    item_ = 0;
    stepSince_ = now;
    if (!options_.full || castle_.readers.empty()) {
        step_ = WalkStep::Done;
        return;
    }
    step_ = WalkStep::Tags;
    tagClearing_ = true;
    advance(now);
}

void CastleWalk::nextTag(Timestamp now) {
    if (item_ >= castle_.readers.size()) {
        finishTags();
        return;
    }
    tagClearing_ = false;
    tagFirstSeen_.reset();
    stepSince_ = now;
    results_.tags.push_back({static_cast<ReaderIndex>(item_), {}, false});
}

void CastleWalk::finishTag(bool skipped, Timestamp now) {
    TagCheck& check = results_.tags.back();
    check.skipped = skipped;
    const ReaderIndex over = check.over;
    const WalkReader& reader = castle_.readers[over];
    if (!skipped) {
        if (check.seenBy.empty()) {
            // (A reader found silent already is not said twice.)
            if (!silentReaders_.contains(over)) {
                auto [finding, fix] = words::tagUnread(reader);
                find(std::move(finding), std::move(fix));
            }
        } else if (!check.seenBy.contains(over)) {
            const ReaderIndex other = *check.seenBy.begin();
            if (swappedPairs_.insert(unordered(over, other)).second) {
                auto [finding, fix] = words::tagSwapped(reader, castle_.readers[other]);
                find(std::move(finding), std::move(fix));
            }
        }
        // Two readers that see one tag: coupled (each pair once).
        for (auto a = check.seenBy.begin(); a != check.seenBy.end(); ++a)
            for (auto b = std::next(a); b != check.seenBy.end(); ++b)
                if (reportedPairs_.insert(unordered(*a, *b)).second) {
                    auto [finding, fix] = words::tagCoupled(reader, castle_.readers[*a], castle_.readers[*b]);
                    find(std::move(finding), std::move(fix));
                }
    }
    ++item_;
    tagClearing_ = true;
    tagFirstSeen_.reset();
    stepSince_ = now;
    if (item_ >= castle_.readers.size()) finishTags();
}

void CastleWalk::finishTags() { step_ = WalkStep::Done; }

// --- what it shows --------------------------------------------------------------

engine::Message CastleWalk::prompt() const {
    switch (step_) {
        case WalkStep::Readers:
            return engine::Message("castle.walk.readers");
        case WalkStep::Leds:
            return engine::Message("castle.walk.led",
                                   {{"led", engine::say::message(words::ledName(castle_.leds[item_]))}});
        case WalkStep::Keys:
            if (handsOff_) return engine::Message("castle.walk.hands-off");
            return words::keyPrompt(castle_.keys[item_]);
        case WalkStep::Tags: {
            if (tagClearing_) return engine::Message("castle.walk.tag-lift");
            const WalkReader& reader = castle_.readers[item_];
            int spot = 0, spots = 0;
            for (std::size_t r = 0; r < castle_.readers.size(); ++r)
                if (castle_.readers[r].place == reader.place) {
                    ++spots;
                    if (r <= item_) ++spot;
                }
            return words::tagPrompt(reader, spot, spots);
        }
        case WalkStep::Done:
            break;
    }
    if (faults() == 0) return engine::Message("castle.walk.done-clean");
    return engine::Message("castle.walk.done", {{"n", engine::say::number(faults())}});
}

std::vector<std::string> CastleWalk::answers() const {
    switch (step_) {
        case WalkStep::Leds:
            return {"lit", "not-lit", "skip"};
        case WalkStep::Keys:
            if (handsOff_) return {};
            return {"done", "skip"};
        case WalkStep::Tags:
            return {"done", "skip"};
        case WalkStep::Readers:
        case WalkStep::Done:
            break;
    }
    return {};
}

int CastleWalk::items() const {
    switch (step_) {
        case WalkStep::Leds:
            return static_cast<int>(castle_.leds.size());
        case WalkStep::Keys:
            return static_cast<int>(castle_.keys.size());
        case WalkStep::Tags:
            return static_cast<int>(castle_.readers.size());
        case WalkStep::Readers:
        case WalkStep::Done:
            break;
    }
    return 0;
}

drivers::LedStates CastleWalk::leds() const {
    drivers::LedStates states;
    if (step_ == WalkStep::Leds) states[castle_.leds[item_].led] = drivers::LedMode::On;
    if (step_ == WalkStep::Tags && !tagClearing_) {
        // The place the tag goes on, lit where it has an LED.
        const auto led = drivers::placeLed(drivers::PlaceName{castle_.readers[item_].place});
        for (const auto& known : castle_.leds)
            if (known.led == led) states[led] = drivers::LedMode::On;
    }
    return states;
}

}  // namespace vivaref::setup
