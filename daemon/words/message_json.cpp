#include "daemon/words/message_json.hpp"

#include <stdexcept>

namespace vivaref::words {
namespace {

using engine::MessageValue;
using nlohmann::json;

json valueJson(const MessageValue& v) {
    using Kind = MessageValue::Kind;
    switch (v.kind) {
        case Kind::Number:
            return v.number;
        case Kind::Seat:
            return json{{"seat", v.number}};
        case Kind::Character: {
            json c{{"character", v.text}, {"name", v.name}};
            if (!v.characterKind.empty()) c["kind"] = v.characterKind;
            return c;
        }
        case Kind::Place:
            return json{{"place", v.text}};
        case Kind::Player:
            return json{{"player", v.text}};
        case Kind::Vote:
            return json{{"vote", v.text}};
        case Kind::Ambition:
            return json{{"ambition", v.text}};
        case Kind::Text:
            return json{{"text", v.text}};
        case Kind::List: {
            json items = json::array();
            for (const auto& item : v.items) items.push_back(valueJson(item));
            return json{{"list", std::move(items)}};
        }
        case Kind::Message:
            return json{{"message", v.inner.empty() ? json() : messageJson(v.inner.front())}};
    }
    return nullptr;
}

std::string textField(const json& j, const char* key) {
    const auto& field = j.at(key);
    if (!field.is_string()) throw std::invalid_argument(std::string("\"") + key + "\" must be a string");
    return field.get<std::string>();
}

MessageValue valueFromJson(const json& j) {
    namespace say = engine::say;
    if (j.is_number_integer()) return say::number(j.get<std::int64_t>());
    if (!j.is_object() || j.empty()) throw std::invalid_argument("a parameter is a number or an object");
    if (j.contains("seat")) {
        auto v = say::seat(engine::Seat{});
        v.number = j.at("seat").get<std::int64_t>();
        return v;
    }
    if (j.contains("character")) {
        MessageValue v;
        v.kind = MessageValue::Kind::Character;
        v.text = textField(j, "character");
        v.name = j.contains("name") ? textField(j, "name") : v.text;
        if (j.contains("kind")) v.characterKind = textField(j, "kind");
        return v;
    }
    auto textValue = [&](MessageValue::Kind kind, const char* key) {
        MessageValue v;
        v.kind = kind;
        v.text = textField(j, key);
        return v;
    };
    if (j.contains("place")) return textValue(MessageValue::Kind::Place, "place");
    if (j.contains("player")) return textValue(MessageValue::Kind::Player, "player");
    if (j.contains("vote")) return textValue(MessageValue::Kind::Vote, "vote");
    if (j.contains("ambition")) return textValue(MessageValue::Kind::Ambition, "ambition");
    if (j.contains("text")) return textValue(MessageValue::Kind::Text, "text");
    if (j.contains("list")) {
        std::vector<MessageValue> items;
        for (const auto& item : j.at("list")) items.push_back(valueFromJson(item));
        return say::list(std::move(items));
    }
    if (j.contains("message")) return say::message(messageFromJson(j.at("message")));
    throw std::invalid_argument("unknown parameter kind: " + j.dump());
}

}  // namespace

json messageJson(const engine::Message& message) {
    json args = json::object();
    for (const auto& arg : message.args) args[arg.name] = valueJson(arg.value);
    return json{{"code", message.code}, {"args", std::move(args)}};
}

engine::Message messageFromJson(const json& j) {
    if (!j.is_object() || !j.contains("code"))
        throw std::invalid_argument("a message is an object with a \"code\"");
    engine::Message m(textField(j, "code"));
    if (j.contains("args")) {
        if (!j.at("args").is_object()) throw std::invalid_argument("\"args\" must be an object");
        for (const auto& [name, value] : j.at("args").items()) m.args.push_back({name, valueFromJson(value)});
    }
    return m;
}

}  // namespace vivaref::words
