// Prints every example of tests/words/examples.json rendered in every
// shipped language, as JSON {"fr": {"refusal.floor-full": [TEXT, ...]}}:
// what parity.mjs compares with the pages' rendering (web-ui/js/words.js).
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

int main(int argc, char** argv) {
    using nlohmann::json;
    if (argc != 2) {
        std::cerr << "usage: render_examples EXAMPLES.json\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    const auto examples = json::parse(text.str());
    json out = json::object();
    for (const auto& language : vivaref::words::shippedLanguages()) {
        const vivaref::words::Words words(language);
        json texts = json::object();
        for (const auto& [code, cases] : examples.items())
            for (const auto& args : cases)
                texts[code].push_back(
                    words.say(vivaref::words::messageFromJson(json{{"code", code}, {"args", args}})));
        out[language] = std::move(texts);
    }
    std::cout << out.dump(1) << "\n";
    return 0;
}
