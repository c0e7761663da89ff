#include "daemon/trace/trace_reader.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <span>

#include "daemon/referee/host_request.hpp"
#include "drivers/sensing/tag_registry.hpp"
#include "engine/record/field_reader.hpp"
#include "engine/record/line_reader.hpp"
#include "engine/record/player_name.hpp"
#include "engine/record/strict_json.hpp"

namespace vivaref::trace {

using nlohmann::json;
using record::messageQuote;

namespace {

constexpr std::array<std::string_view, 13> kHostNames = {"new-game", "deal",   "keep",    "reshuffle", "undo",
                                                         "pause",    "resume", "abandon", "reveal",    "seat",
                                                         "vote",     "plan",   "order"};

// A line's first problem; thrown inside this file only, and caught by
// parseTraceLine, so that the checks below read straight through.
struct Malformed {
    std::string what;
};

[[noreturn]] void fail(std::string what) { throw Malformed{std::move(what)}; }

std::string typeName(const json& v) {
    if (v.is_number_integer()) return "a whole number";
    if (v.is_number()) return "a number with a fraction or exponent";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "true or false";
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    return "null";
}

std::string keyList(std::span<const std::string_view> keys) {
    std::string out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i) out += i + 1 == keys.size() ? " or " : ", ";
        out += keys[i];
    }
    return out;
}

// `value` is an object whose keys are all in `allowed`; `what` names it.
const json& object(const json& value, std::string_view what,
                   std::initializer_list<std::string_view> allowed) {
    if (!value.is_object()) fail(std::string(what) + " must be an object, not " + typeName(value));
    for (const auto& [key, _] : value.items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            fail(std::string(what) + " has an unknown key " + messageQuote(key));
    return value;
}

const json& required(const json& object, std::string_view key, std::string_view what) {
    auto it = object.find(key);
    if (it == object.end()) fail(std::string(what) + " misses its key " + messageQuote(key));
    return *it;
}

std::string text(const json& value, std::string_view what) {
    if (!value.is_string()) fail(std::string(what) + " must be a string, not " + typeName(value));
    return value.get<std::string>();
}

// A name (a reader, a place, a slug): not empty, printable, not absurdly long.
std::string name(const json& value, std::string_view what) {
    std::string s = text(value, what);
    if (s.empty()) fail(std::string(what) + " must not be empty");
    if (s.size() > 64) fail(std::string(what) + " " + messageQuote(s) + " is longer than 64 characters");
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f)
            fail(std::string(what) + " " + messageQuote(s) + " holds a control character");
    return s;
}

std::int64_t wholeNumber(const json& value, std::string_view what, std::int64_t max) {
    if (!value.is_number_integer())
        fail(std::string(what) + " must be a whole number, not " + typeName(value));
    if (value.is_number_unsigned()) {
        if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(max))
            fail(std::string(what) + " is larger than " + std::to_string(max));
        return static_cast<std::int64_t>(value.get<std::uint64_t>());
    }
    const auto n = value.get<std::int64_t>();
    if (n < 0) fail(std::string(what) + " must not be negative");
    if (n > max) fail(std::string(what) + " is larger than " + std::to_string(max));
    return n;
}

bool allUpperHex(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(),
                                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); });
}

drivers::TagUid uid(const json& value, std::string_view what) {
    std::string s = text(value, what);
    if (!allUpperHex(s))
        fail(std::string(what) + " " + messageQuote(s) + " is not a UID in uppercase hex (0-9, A-F)");
    std::string why;
    auto parsed = drivers::TagUid::tryFromHex(s, why);
    if (!parsed) fail(std::string(what) + ": " + why);
    return *parsed;
}

TagName tagName(const json& value, std::string_view what) {
    TagName tag{name(value, what)};
    if (tag.isUid()) uid(value, what);  // a UID must be a whole one
    return tag;
}

HostLine readHost(const json& value) {
    if (!value.is_object()) fail("\"host\" must be an object, not " + typeName(value));
    if (value.size() != 1)
        fail("\"host\" must hold exactly one request (" + keyList(kHostNames) + "), not " +
             std::to_string(value.size()));
    const std::string key = value.begin().key();
    const json& payload = value.begin().value();
    HostLine host;
    if (!parseHostKind(key, host.kind))
        fail("\"host\" has an unknown request " + messageQuote(key) + "; it is one of " +
             keyList(kHostNames));
    const std::string what = "The host's " + key;
    switch (host.kind) {
        case HostKind::NewGame: {
            const json& fields = object(
                payload, what, {"setup", "players", "favourites", "bots", "members", "teaching", "seats"});
            const json& setup = required(fields, "setup", what);
            if (!setup.is_object())
                fail("The new-game's \"setup\" must be an object, not " + typeName(setup));
            host.payload = setup;
            if (auto it = fields.find("players"); it != fields.end()) {
                if (!it->is_array()) fail("The new-game's \"players\" must be a list, not " + typeName(*it));
                if (it->size() > 64) fail("The new-game's \"players\" names more than 64 players");
                for (const json& p : *it) {
                    const std::string player = text(p, "A player's name");
                    // The same check as the host's new game (engine/record/player_name.hpp).
                    if (auto why = record::playerNameProblem(player))
                        fail("The new-game's player " + std::to_string(host.players.size() + 1) + "'s name " +
                             *why);
                    host.players.push_back(player);
                }
            }
            if (auto it = fields.find("favourites"); it != fields.end()) {
                host.favourites = text(*it, "The new-game's \"favourites\"");
                if (host.favourites != "dealt" && host.favourites != "physical")
                    fail("The new-game's \"favourites\" is " + messageQuote(host.favourites) +
                         "; it is \"dealt\" or \"physical\"");
            }
            if (auto it = fields.find("bots"); it != fields.end()) {
                if (!it->is_array()) fail("The new-game's \"bots\" must be a list, not " + typeName(*it));
                if (it->size() > 64) fail("The new-game's \"bots\" names more than 64 seats");
                for (const json& bot : *it) {
                    const json& b = object(bot, "A new-game's bot", {"seat", "strength"});
                    const json& seat = required(b, "seat", "A new-game's bot");
                    if (!seat.is_number_integer() || seat.get<std::int64_t>() < 0 ||
                        seat.get<std::int64_t>() > 63)
                        fail("A new-game's bot's \"seat\" must be a seat number from 0 to 63");
                    const std::string strength =
                        text(required(b, "strength", "A new-game's bot"), "A new-game's bot's \"strength\"");
                    if (strength.empty() || strength.size() > 16)
                        fail("A new-game's bot's \"strength\" is not a strength's name");
                }
                host.bots = *it;
            }
            if (auto it = fields.find("members"); it != fields.end()) {
                if (!it->is_array()) fail("The new-game's \"members\" must be a list, not " + typeName(*it));
                if (it->size() > 64) fail("The new-game's \"members\" names more than 64 players");
                for (const json& m : *it)
                    if (!m.is_null() && !(m.is_number_integer() && m.get<std::int64_t>() > 0))
                        fail("A new-game's member is a club member's id (a positive whole number) or null");
                host.members = *it;
            }
            if (auto it = fields.find("teaching"); it != fields.end()) {
                if (!it->is_boolean())
                    fail("The new-game's \"teaching\" must be true or false, not " + typeName(*it));
                host.teaching = *it;
            }
            if (auto it = fields.find("seats"); it != fields.end()) {
                if (!it->is_array()) fail("The new-game's \"seats\" must be a list, not " + typeName(*it));
                if (it->size() > 64) fail("The new-game's \"seats\" names more than 64 seats");
                // The same reading as the host's new game (daemon/referee/host_request.hpp).
                if (auto read = referee::readSeatSetups(*it); auto* why = std::get_if<std::string>(&read))
                    fail("The new-game's \"seats\": " + *why);
                host.seats = *it;
            }
            break;
        }
        case HostKind::Seat:
            // The same reading as the host's page's (daemon/referee/host_request.hpp).
            if (auto read = referee::parseHostRequest(json{{"seat", payload}}); !read.ok())
                fail(what + ": " + std::get<std::string>(read.value));
            host.payload = payload;
            break;
        case HostKind::Deal:
        case HostKind::Keep:
        case HostKind::Reshuffle:
        case HostKind::Reveal:
        case HostKind::Vote:
        case HostKind::Plan:
            if (!payload.is_object()) fail(what + " must be an object, not " + typeName(payload));
            host.payload = payload;
            break;
        case HostKind::Undo:
        case HostKind::Pause:
        case HostKind::Resume:
        case HostKind::Abandon:
            object(payload, what, {});
            break;
        case HostKind::Order: {
            // Two to four characters' slugs, in the order the host says
            // they were put down (the referee judges which).
            const json& characters = required(object(payload, what, {"characters"}), "characters", what);
            if (!characters.is_array() || characters.size() < 2 || characters.size() > 4)
                fail("The order's \"characters\" must be a list of 2 to 4 characters' ids");
            for (const json& c : characters)
                if (!c.is_string() || c.get_ref<const std::string&>().empty())
                    fail("An order's character is a character's id (text), not " + c.dump());
            host.payload = payload;
            break;
        }
    }
    return host;
}

// The optional "once" of a scan or reader-fault: true, or absent (false).
bool once(const json& fields, std::string_view what) {
    auto it = fields.find("once");
    if (it == fields.end()) return false;
    if (!it->is_boolean() || !it->get<bool>())
        fail(std::string(what) + "'s \"once\" must be true when present, not " + it->dump());
    return true;
}

ScanLine readScan(const json& value) {
    const json& fields = object(value, "The scan", {"reader", "tags", "once"});
    ScanLine scan;
    scan.reader.name = name(required(fields, "reader", "The scan"), "The scan's \"reader\"");
    const json& tags = required(fields, "tags", "The scan");
    if (!tags.is_array()) fail("The scan's \"tags\" must be a list, not " + typeName(tags));
    std::set<drivers::TagUid> seen;
    for (const json& t : tags) {
        scan.tags.push_back(uid(t, "The scan's tag"));
        if (!seen.insert(scan.tags.back()).second)
            fail("The scan lists the tag " + scan.tags.back().toHex() + " twice");
    }
    scan.once = once(fields, "The scan");
    return scan;
}

ReaderFaultLine readReaderFault(const json& value) {
    const json& fields = object(value, "The reader-fault", {"reader", "what", "once"});
    ReaderFaultLine fault;
    fault.reader.name = name(required(fields, "reader", "The reader-fault"), "The reader-fault's \"reader\"");
    fault.what = text(required(fields, "what", "The reader-fault"), "The reader-fault's \"what\"");
    fault.once = once(fields, "The reader-fault");
    return fault;
}

PutLine readPut(const json& value) {
    const json& fields = object(value, "The put", {"tag", "place"});
    PutLine put;
    put.tag = tagName(required(fields, "tag", "The put"), "The put's \"tag\"");
    put.place.name = name(required(fields, "place", "The put"), "The put's \"place\"");
    return put;
}

LiftLine readLift(const json& value) {
    const json& fields = object(value, "The lift", {"tag"});
    return LiftLine{tagName(required(fields, "tag", "The lift"), "The lift's \"tag\"")};
}

ButtonLine readButton(const json& value) {
    const json& fields = object(value, "The button", {"station", "key"});
    ButtonLine button;
    button.station.number = static_cast<int>(
        wholeNumber(required(fields, "station", "The button"), "The button's \"station\"", kMaxStations - 1));
    const std::string key = text(required(fields, "key", "The button"), "The button's \"key\"");
    auto parsed = drivers::voteKeyFromName(key);
    if (!parsed) fail("The button's \"key\" " + messageQuote(key) + " is not yes, no or stomachache");
    button.key = *parsed;
    return button;
}

TraceLine readLine(const json& value) {
    if (!value.is_object()) fail("A trace line must be a JSON object, not " + typeName(value));
    TraceLine line;
    auto t = value.find("t");
    if (t == value.end()) fail("The line has no \"t\" (milliseconds since the trace's start)");
    line.t = wholeNumber(*t, "\"t\"", kMaxTraceTime);
    std::string input;
    for (const auto& [key, _] : value.items()) {
        if (key == "t") continue;
        if (std::find(kInputKeys.begin(), kInputKeys.end(), key) == kInputKeys.end())
            fail("The line has an unknown key " + messageQuote(key) + "; its input is one of " +
                 keyList(kInputKeys));
        if (!input.empty())
            fail("The line has both \"" + input + "\" and \"" + key + "\"; a line holds exactly one input");
        input = key;
    }
    if (input.empty()) fail("The line has no input: one of " + keyList(kInputKeys));
    const json& payload = value.at(input);
    if (input == "host")
        line.input = readHost(payload);
    else if (input == "scan")
        line.input = readScan(payload);
    else if (input == "reader-fault")
        line.input = readReaderFault(payload);
    else if (input == "put")
        line.input = readPut(payload);
    else if (input == "lift")
        line.input = readLift(payload);
    else
        line.input = readButton(payload);
    return line;
}

}  // namespace

bool TagName::isUid() const {
    const bool hexOnly = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
    });
    return hexOnly && std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

drivers::TagUid TagName::uid() const {
    if (isUid()) {
        std::string why;
        if (auto uid = drivers::TagUid::tryFromHex(text, why)) return *uid;
    }
    return drivers::simulatedTagUid(text);
}

std::string_view hostKindName(HostKind kind) { return kHostNames[static_cast<std::size_t>(kind)]; }

bool parseHostKind(std::string_view name, HostKind& kind) {
    auto it = std::find(kHostNames.begin(), kHostNames.end(), name);
    if (it == kHostNames.end()) return false;
    kind = static_cast<HostKind>(it - kHostNames.begin());
    return true;
}

LineParse parseTraceLine(std::string_view text) {
    LineParse out;
    record::StrictJson strict = record::parseStrictJson(text);
    if (!strict.value) {
        out.error = strict.error;
        if (!out.error.empty() && out.error.back() == '.') out.error.pop_back();
        return out;
    }
    try {
        out.line = readLine(*strict.value);
    } catch (const Malformed& m) {
        out.error = m.what;
    }
    return out;
}

std::optional<TraceLine> TraceReader::next(std::string_view text, std::optional<TraceError>& error) {
    ++lineNumber_;
    if (record::isBlankLine(text)) return std::nullopt;
    LineParse parsed = parseTraceLine(text);
    if (!parsed.line) {
        error = TraceError{lineNumber_, std::move(parsed.error)};
        return std::nullopt;
    }
    if (parsed.line->t < lastT_) {
        error = TraceError{lineNumber_, "\"t\" goes back in time, from " + std::to_string(lastT_) + " to " +
                                            std::to_string(parsed.line->t) + "; a trace is in time order"};
        return std::nullopt;
    }
    lastT_ = parsed.line->t;
    return std::move(parsed.line);
}

TraceRead readTrace(std::string_view text) {
    TraceRead out;
    TraceReader reader;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view physical = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        auto line = reader.next(physical, out.error);
        if (out.error) {
            out.lines.clear();
            return out;
        }
        if (line) out.lines.push_back({reader.lineNumber(), std::move(*line)});
    }
    return out;
}

}  // namespace vivaref::trace
