#include "engine/message.hpp"

#include "engine/roster.hpp"

namespace vivaref::engine {

bool operator==(const MessageValue& a, const MessageValue& b) {
    return a.kind == b.kind && a.number == b.number && a.text == b.text && a.name == b.name &&
           a.characterKind == b.characterKind && a.items == b.items && a.inner == b.inner;
}

bool operator==(const MessageArg& a, const MessageArg& b) { return a.name == b.name && a.value == b.value; }

// The same parameters in any order: a message read back from JSON has them sorted.
bool operator==(const Message& a, const Message& b) {
    if (a.code != b.code || a.args.size() != b.args.size()) return false;
    for (const auto& arg : a.args) {
        const auto* theirs = b.arg(arg.name);
        if (!theirs || !(*theirs == arg.value)) return false;
    }
    return true;
}

const MessageValue* Message::arg(std::string_view argName) const {
    for (const auto& a : args)
        if (a.name == argName) return &a.value;
    return nullptr;
}

namespace say {

namespace {
MessageValue valueOf(MessageValue::Kind kind, std::string text) {
    MessageValue v;
    v.kind = kind;
    v.text = std::move(text);
    return v;
}
}  // namespace

MessageValue number(std::int64_t n) {
    MessageValue v;
    v.number = n;
    return v;
}

MessageValue character(const Character& c) {
    auto v = valueOf(MessageValue::Kind::Character, c.id);
    v.name = c.name;
    v.characterKind = std::string(characterKindName(c.kind));
    return v;
}

MessageValue character(std::string slug, std::string name, std::string kind) {
    auto v = valueOf(MessageValue::Kind::Character, std::move(slug));
    v.name = std::move(name);
    v.characterKind = std::move(kind);
    return v;
}

MessageValue place(Place p) { return valueOf(MessageValue::Kind::Place, std::string(placeName(p))); }

MessageValue seat(Seat s) {
    MessageValue v;
    v.kind = MessageValue::Kind::Seat;
    v.number = s.index;
    return v;
}

MessageValue player(std::string name) { return valueOf(MessageValue::Kind::Player, std::move(name)); }

MessageValue vote(VoteCard c) { return valueOf(MessageValue::Kind::Vote, std::string(voteCardName(c))); }

MessageValue ambition(AmbitionCard c) {
    return valueOf(MessageValue::Kind::Ambition, std::string(ambitionCardName(c)));
}

MessageValue list(std::vector<MessageValue> items) {
    MessageValue v;
    v.kind = MessageValue::Kind::List;
    v.items = std::move(items);
    return v;
}

MessageValue message(Message m) {
    MessageValue v;
    v.kind = MessageValue::Kind::Message;
    v.inner.push_back(std::move(m));
    return v;
}

MessageValue text(std::string words) { return valueOf(MessageValue::Kind::Text, std::move(words)); }

}  // namespace say

namespace {

void describeValue(const MessageValue& v, std::string& out) {
    using Kind = MessageValue::Kind;
    switch (v.kind) {
        case Kind::Number:
            out += std::to_string(v.number);
            break;
        case Kind::Seat:
            out += "seat:" + std::to_string(v.number);
            break;
        case Kind::Character:
            out += v.text;
            break;
        case Kind::Place:
            out += "place:" + v.text;
            break;
        case Kind::Player:
            out += "player:" + v.text;
            break;
        case Kind::Vote:
            out += "vote:" + v.text;
            break;
        case Kind::Ambition:
            out += "ambition:" + v.text;
            break;
        case Kind::List:
            out += "[";
            for (std::size_t i = 0; i < v.items.size(); ++i) {
                if (i) out += ", ";
                describeValue(v.items[i], out);
            }
            out += "]";
            break;
        case Kind::Message:
            out += v.inner.empty() ? "" : describe(v.inner.front());
            break;
        case Kind::Text:
            out += "\"" + v.text + "\"";
            break;
    }
}

}  // namespace

std::string describe(const Message& m) {
    std::string out = m.code;
    if (m.args.empty()) return out;
    out += "{";
    for (std::size_t i = 0; i < m.args.size(); ++i) {
        if (i) out += ", ";
        out += m.args[i].name + "=";
        describeValue(m.args[i].value, out);
    }
    return out + "}";
}

}  // namespace vivaref::engine
