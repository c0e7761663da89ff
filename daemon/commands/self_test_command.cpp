// `vivaref self-test [--full]`: the castle's self-test (the castle walk,
// daemon/setup/castle_walk.hpp) run by the running daemon, as the host
// page's "Check the castle" runs it (POST /api/host/self-test, web-ui/API.md),
// with its questions asked on the terminal: each LED lit (y / n / s), each
// key pressed, with --full a tag over each reader. The findings and their
// fixes are printed in the reader's language (--lang, else the locale).
//
// Exit status: 0 nothing to fix (notes, such as a clone chip, may be
// printed); 1 faults found; 2 it could not run (no daemon, a refusal such as
// a game in progress, the check stopped).
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_language.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/commands/host_connection.hpp"
#include "daemon/commands/terminal_text.hpp"
#include "daemon/words/message_json.hpp"
#include "daemon/words/words.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

constexpr std::string_view kSelfTestCommand = "self-test";

volatile std::sig_atomic_t selfTestInterrupted = 0;
extern "C" void onSelfTestInterrupt(int) { selfTestInterrupted = 1; }

// A said thing of the state ({"text", "says"}) in the reader's language.
std::string sayOf(const words::Words& words, const json& said) {
    try {
        return escapeControls(words.say(words::messageFromJson(said.at("says"))));
    } catch (const std::exception&) {
        return escapeControls(said.value("text", ""));
    }
}

// What standard input gave within `wait`: nothing yet, a line, or its end.
enum class Typed { Nothing, Line, Over };
Typed typedLine(std::chrono::milliseconds wait, bool& inputOver, std::string& line) {
    if (inputOver) {
        std::this_thread::sleep_for(wait);
        return Typed::Over;
    }
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, static_cast<int>(wait.count())) <= 0) return Typed::Nothing;
    if (!std::getline(std::cin, line)) {
        inputOver = true;
        return Typed::Over;
    }
    return Typed::Line;
}

// What a typed word answers, for the answers the step takes.
std::optional<std::string> answerOf(std::string typed, const json& answers) {
    while (!typed.empty() && (typed.back() == ' ' || typed.back() == '\r')) typed.pop_back();
    auto takes = [&](const char* name) {
        for (const auto& a : answers)
            if (a == name) return true;
        return false;
    };
    if ((typed == "y" || typed == "lit") && takes("lit")) return "lit";
    if ((typed == "n" || typed == "not-lit") && takes("not-lit")) return "not-lit";
    if ((typed == "s" || typed == "skip") && takes("skip")) return "skip";
    if ((typed == "d" || typed == "done" || typed.empty()) && takes("done")) return "done";
    return std::nullopt;
}

// What the typed keys answer, in the reader's words: by the step (and, in
// the tag walk, whether the castle is to be cleared first).
std::string answersHint(const words::Words& words, const json& state) {
    const std::string step = state.value("step", "");
    if (state.value("answers", json::array()).empty()) return "";
    const bool lifting =
        state["prompt"].value("says", json::object()).value("code", "") == "castle.walk.tag-lift";
    const char* code = step == "leds"   ? "castle.walk.answer-led"
                       : step == "keys" ? "castle.walk.answer-key"
                       : lifting        ? "castle.walk.answer-lift"
                                        : "castle.walk.answer-tag";
    return "  " + words.say(code);
}

}  // namespace

int runSelfTest(const std::vector<std::string>& args) {
    bool full = false;
    std::string language;
    HostConnectionOptions connectionOptions;
    const std::string about =
        std::string(
            "Checks the castle with the running referee daemon ('vivaref serve'), between games: every\n"
            "reader asked, every LED lit in turn (answer y if it is lit, n if not, s to skip), every vote\n"
            "key pressed when asked (Enter if you pressed it and nothing happened, s to skip), and with\n"
            "--full a tag put over each reader in turn (Enter if the tag is down and nothing happens).\n"
            "Then each fault found is printed with its fix: which reader, which wire, which header "
            "pin.\n\n") +
        kHostConnectionHelp +
        "\n\n"
        "Exit status: 0 nothing to fix; 1 faults found; 2 the check could not run (no daemon, a game\n"
        "in progress, the check stopped).\n\n"
        "Examples:\n"
        "  vivaref self-test\n"
        "  sudo vivaref self-test --full --config /etc/vivaref/vivaref.ini --lang fr";
    CommandLine line("self-test", "vivaref self-test [--full] [options]", about);
    line.visible.add_options()("full", po::bool_switch(&full),
                               "the tag walk too: a tag over each reader in turn");
    addLanguageOption(line.visible, language);
    connectionOptions.addTo(line);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    std::string badLanguage;
    const auto told = commandLanguage(language, badLanguage);
    if (!told) return usageError(kSelfTestCommand, badLanguage);
    const words::Words words(*told, words::NameMarks::Plain);

    auto connection = openHostConnection(kSelfTestCommand, connectionOptions);
    if (const int* status = std::get_if<int>(&connection)) return *status == kExitOk ? kExitOk : kExitUsage;
    const auto& daemon = std::get<HostConnection>(connection);
    auto started = sendHostRequest(daemon, "/api/host/self-test", json{{"full", full}});
    if (std::get_if<int>(&started)) return kExitUsage;

    selfTestInterrupted = 0;
    std::signal(SIGINT, onSelfTestInterrupt);
    json state = std::get<json>(started);
    std::string shown;  // the prompt last printed (step, item, words)
    bool inputOver = false;
    int status = kExitUsage;
    for (;;) {
        if (selfTestInterrupted) {
            (void)sendHostRequest(daemon, "/api/host/self-test", json{{"action", "stop"}});
            std::cout << "\n";
            break;
        }
        const std::string prompt = sayOf(words, state["prompt"]);
        const std::string key =
            state.value("step", "") + "/" + std::to_string(state.value("item", 0)) + "/" + prompt;
        const json answers = state.value("answers", json::array());
        if (key != shown) {
            shown = key;
            std::cout << prompt << (state.value("running", false) ? answersHint(words, state) : "")
                      << std::endl;
        }
        if (!state.value("running", false)) {
            if (state.value("stopped", false)) break;
            const auto& findings = state["findings"];
            for (const auto& f : findings) {
                std::cout << (f.value("note", false) ? "  note: " : "  - ") << sayOf(words, f["finding"])
                          << "\n"
                          << "    " << sayOf(words, f["fix"]) << "\n";
            }
            status = state.value("faults", 0) == 0 ? kExitOk : kExitRefused;
            break;
        }
        std::optional<std::string> typed;
        if (answers.empty()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        } else {
            std::string text;
            const Typed got = typedLine(std::chrono::milliseconds(250), inputOver, text);
            if (got == Typed::Line) typed = text;
            // Standard input over: whatever is asked is skipped (a key may still answer before).
            if (got == Typed::Over) typed = "s";
        }
        std::optional<json> next;
        if (typed) {
            if (auto answer = answerOf(*typed, answers)) {
                auto answered =
                    sendHostRequest(daemon, "/api/host/self-test/answer", json{{"answer", *answer}});
                if (auto* body = std::get_if<json>(&answered)) next = *body;
            } else {
                std::cout << answersHint(words, state) << std::endl;
            }
        }
        if (!next) {
            auto got = sendHostRequest(daemon, "/api/host/self-test", std::nullopt);
            if (std::get_if<int>(&got)) break;
            next = std::get<json>(got);
        }
        state = std::move(*next);
    }
    std::signal(SIGINT, SIG_DFL);
    return status;
}

}  // namespace vivaref::daemon
