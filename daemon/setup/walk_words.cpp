#include "daemon/setup/walk_words.hpp"

#include <string>

#include "daemon/config/wiring.hpp"

namespace vivaref::setup::words {

namespace {

namespace say = engine::say;

engine::MessageValue placeValue(const std::string& place) {
    engine::MessageValue v;
    v.kind = engine::MessageValue::Kind::Place;
    v.text = place;
    return v;
}

engine::MessageValue keyValue(drivers::VoteKey key) {
    engine::MessageValue v;
    v.kind = engine::MessageValue::Kind::Vote;
    v.text = drivers::voteKeyName(key);
    return v;
}

engine::MessageValue seatValue(drivers::StationId station) {
    engine::MessageValue v;
    v.kind = engine::MessageValue::Kind::Seat;
    v.number = station.number;
    return v;
}

engine::MessageArg readerArg(const char* name, const WalkReader& reader) {
    return {name, say::text(reader.name)};
}

// A line in words, or "its line" when the castle does not say (the simulated standard castle).
engine::MessageValue lineValue(const std::optional<config::GpioLine>& line) {
    return say::message(line ? config::describeLine(*line) : Message("castle.wiring.unknown-line"));
}

// How a reader is wired, in words; "its wiring" when the configuration does not say.
engine::MessageValue wiringValue(const WalkReader& reader) {
    return say::message(reader.wiring ? config::describeReaderWiring(*reader.wiring)
                                      : Message("castle.wiring.unknown-reader"));
}

}  // namespace

Message ledName(const WalkLed& led) {
    const std::string& name = led.led.name;
    auto number = [&](std::size_t prefix) { return drivers::StationId{std::stoi(name.substr(prefix))}; };
    if (name.starts_with("place-")) return Message("castle.led.place", {{"p", placeValue(name.substr(6))}});
    if (name.starts_with("turn-")) return Message("castle.led.turn", {{"seat", seatValue(number(5))}});
    if (name.starts_with("station-")) return Message("castle.led.station", {{"seat", seatValue(number(8))}});
    return Message("castle.led.other", {{"name", say::text(name)}});
}

Message keyPrompt(const WalkKey& key) {
    return Message("castle.walk.key", {{"seat", seatValue(key.station)}, {"key", keyValue(key.key)}});
}

Message tagPrompt(const WalkReader& reader, int spot, int spots) {
    if (spots <= 1)
        return Message("castle.walk.tag", {{"p", placeValue(reader.place)}, readerArg("reader", reader)});
    return Message(
        "castle.walk.tag-spot",
        {{"p", placeValue(reader.place)}, {"spot", say::number(spot)}, readerArg("reader", reader)});
}

std::pair<Message, Message> readerSilent(const WalkReader& reader) {
    Message finding("castle.finding.reader-silent",
                    {readerArg("reader", reader), {"p", placeValue(reader.place)}});
    if (!reader.wiring) return {finding, Message("castle.fix.reader-silent-unwired")};
    switch (reader.wiring->type) {
        case config::ReaderType::Mfrc522:
            return {finding, Message("castle.fix.reader-silent",
                                     {{"cs", say::message(*config::describeChipSelect(*reader.wiring))},
                                      {"bus", say::text(reader.wiring->bus)}})};
        case config::ReaderType::Pn532:
            return {finding,
                    Message("castle.fix.reader-silent-pn532", {{"bus", say::text(reader.wiring->bus)}})};
        case config::ReaderType::Sim:
            break;
    }
    return {finding, Message("castle.fix.reader-silent-unwired")};
}

std::pair<Message, Message> readerWrongVersion(const WalkReader& reader) {
    return {Message("castle.finding.reader-wrong-version", {readerArg("reader", reader)}),
            Message("castle.fix.reader-wrong-version", {{"wiring", wiringValue(reader)}})};
}

std::pair<Message, Message> readerGarbled(const WalkReader& reader, int garbled, int scans) {
    return {
        Message("castle.finding.reader-garbled",
                {readerArg("reader", reader), {"n", say::number(garbled)}, {"scans", say::number(scans)}}),
        Message("castle.fix.reader-garbled", {{"wiring", wiringValue(reader)}})};
}

std::pair<Message, Message> readerBus(const WalkReader& reader) {
    const std::string bus = reader.wiring ? reader.wiring->bus : std::string();
    return {Message("castle.finding.reader-bus", {readerArg("reader", reader)}),
            Message("castle.fix.reader-bus", {{"bus", say::text(bus)}})};
}

std::pair<Message, Message> readerFlaky(const WalkReader& reader, int failures, int scans) {
    return {
        Message("castle.finding.reader-flaky",
                {readerArg("reader", reader), {"n", say::number(failures)}, {"scans", say::number(scans)}}),
        Message("castle.fix.reader-flaky", {{"wiring", wiringValue(reader)}})};
}

std::pair<Message, Message> readerClone(const WalkReader& reader, const castle::ReaderChip& chip) {
    return {Message("castle.finding.reader-clone", {readerArg("reader", reader),
                                                    {"model", say::text(chip.model)},
                                                    {"version", say::text(chip.version)}}),
            Message("castle.fix.reader-clone")};
}

std::pair<Message, Message> crossRead(const WalkReader& a, const WalkReader& b, const drivers::TagUid& tag) {
    return {Message("castle.finding.cross-read",
                    {readerArg("a", a), readerArg("b", b), {"tag", say::text(tag.toHex())}}),
            Message("castle.fix.coupled", {readerArg("a", a), readerArg("b", b)})};
}

std::pair<Message, Message> ledDark(const WalkLed& led) {
    return {Message("castle.finding.led-dark", {{"led", say::message(ledName(led))}}),
            Message("castle.fix.led-dark", {{"line", lineValue(led.line)}})};
}

std::pair<Message, Message> keyStuck(const WalkKey& key) {
    return {
        Message("castle.finding.key-stuck", {{"seat", seatValue(key.station)}, {"key", keyValue(key.key)}}),
        Message("castle.fix.key-stuck", {{"line", lineValue(key.line)}})};
}

std::pair<Message, Message> keySilent(const WalkKey& key) {
    return {
        Message("castle.finding.key-silent", {{"seat", seatValue(key.station)}, {"key", keyValue(key.key)}}),
        Message("castle.fix.key-silent", {{"line", lineValue(key.line)}})};
}

std::pair<Message, Message> keyCrossed(const WalkKey& asked, const WalkKey& answered) {
    return {Message("castle.finding.key-crossed", {{"seat", seatValue(asked.station)},
                                                   {"key", keyValue(asked.key)},
                                                   {"other_seat", seatValue(answered.station)},
                                                   {"other_key", keyValue(answered.key)}}),
            Message("castle.fix.key-crossed",
                    {{"line", lineValue(asked.line)}, {"other_line", lineValue(answered.line)}})};
}

std::pair<Message, Message> tagUnread(const WalkReader& over) {
    return {Message("castle.finding.tag-unread", {{"p", placeValue(over.place)}, readerArg("reader", over)}),
            Message("castle.fix.tag-unread", {readerArg("reader", over), {"wiring", wiringValue(over)}})};
}

std::pair<Message, Message> tagSwapped(const WalkReader& over, const WalkReader& seenBy) {
    return {Message("castle.finding.tag-swapped", {{"p", placeValue(over.place)},
                                                   readerArg("reader", over),
                                                   readerArg("other", seenBy),
                                                   {"q", placeValue(seenBy.place)}}),
            Message("castle.fix.tag-swapped", {readerArg("reader", over), readerArg("other", seenBy)})};
}

std::pair<Message, Message> tagCoupled(const WalkReader& over, const WalkReader& a, const WalkReader& b) {
    return {Message("castle.finding.tag-coupled",
                    {{"p", placeValue(over.place)}, readerArg("a", a), readerArg("b", b)}),
            Message("castle.fix.coupled", {readerArg("a", a), readerArg("b", b)})};
}

}  // namespace vivaref::setup::words
