// `vivaref enrol`: which RFID tag belongs to which character. Asks for each
// character of the edition in turn and records the tag that appears on the
// castle; saves the tag registry after each one.
#include <iostream>
#include <set>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_language.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/enrol/enrol_session.hpp"
#include "daemon/hardware/real_readers.hpp"
#include "daemon/words/words.hpp"
#include "drivers/sensing/tag_registry_file.hpp"
#include "engine/roster.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

std::set<std::string> splitSlugs(const std::vector<std::string>& lists) {
    std::set<std::string> slugs;
    for (const auto& list : lists) {
        std::size_t start = 0;
        while (start <= list.size()) {
            const auto comma = std::min(list.find(',', start), list.size());
            if (comma > start) slugs.insert(list.substr(start, comma - start));
            start = comma + 1;
        }
    }
    return slugs;
}

// The roster's characters to ask for, in order: all but those --skip names
// (each a character of the edition, else `why`) and, with --missing, those
// already enrolled.
std::optional<std::vector<enrol::EnrolCharacter>> charactersToAsk(
    const engine::Roster& roster, const std::vector<std::string>& skipLists, bool onlyMissing,
    const drivers::TagRegistry& existing, const std::string& edition, std::string& why) {
    std::set<std::string> skipped = splitSlugs(skipLists);
    std::vector<enrol::EnrolCharacter> asked;
    for (const auto& c : roster.characters()) {
        const drivers::CharacterSlug slug{c.id};
        if (skipped.erase(c.id) || (onlyMissing && existing.findCharacter(slug))) continue;
        asked.push_back({slug, c.name});
    }
    if (!skipped.empty()) {
        why = "--skip names '" + *skipped.begin() + "', not a character of the " + edition + " edition";
        return std::nullopt;
    }
    return asked;
}

// Each character asked for on the castle, the registry saved after each tag
// and at the end; the summary printed.
int enrolAll(const std::vector<enrol::EnrolCharacter>& asked, const config::CastleConfig& castle,
             bool simulated, const std::string& edition, const std::filesystem::path& tagsPath,
             drivers::TagRegistries& registries, const words::Words& words) {
    const drivers::TagRegistry existing = registries[edition];
    enrol::EnrolmentConfig settings;
    const auto layout = castle.layout();
    settings.where = engine::Message(layout.findPlace({std::string(config::kEnrolmentPlace)})
                                         ? "enrol.where-enrolment-reader"
                                         : "enrol.where-any-floor");
    enrol::Enrolment enrolment(asked, existing, settings);
    int kept = 0;
    auto save = [&] {
        registries[edition] = enrolment.registry();
        drivers::saveTagRegistries(tagsPath, registries);
    };
    auto print = [&](const enrol::EnrolmentEvent& e) {
        std::cout << (e.kind == enrol::EnrolmentEventKind::Asking ? "" : "  ") << words.say(e.says) << "\n"
                  << std::flush;
        if (e.kind == enrol::EnrolmentEventKind::Kept) ++kept;
        if (e.kind == enrol::EnrolmentEventKind::Enrolled) save();
    };

    // Real readers open first: a device that is not there stops us before any question.
    std::unique_ptr<hardware::RealReaders> readers;
    if (!simulated) readers = std::make_unique<hardware::RealReaders>(castle);
    std::cout << "Enrolling the " << edition << " edition's characters on the "
              << (simulated ? "simulated castle (a demo player puts each tag)" : "castle")
              << "; the registry is " << tagsPath.string() << ".\n";
    bool finished = false;
    if (simulated) {
        finished = enrol::runSimulated(enrolment, castle, existing, print);
        if (!finished) {
            std::cerr << "vivaref enrol: the simulated castle never showed the demo player's tag\n";
            return kExitRefused;
        }
    } else {
        std::cout << "Press Enter to skip a character, q then Enter to stop.\n";
        finished = enrol::runReal(enrolment, *readers, castle.backoff, print);
    }
    save();
    std::cout << enrolment.enrolledCount() << " enrolled, " << kept << " kept, " << enrolment.skippedCount()
              << " skipped" << (finished ? "" : " (stopped before the end)") << "; "
              << registries[edition].size() << " tags of the " << edition << " edition are in "
              << tagsPath.string() << ".\n";
    return kExitOk;
}

}  // namespace

int runEnrol(const std::vector<std::string>& args) {
    std::string configFile, edition, hardware, tagsFile;
    std::vector<std::string> skipLists;
    bool onlyMissing = false;
    std::string language;
    CommandLine line(
        "enrol", "vivaref enrol [options]",
        "Asks for each character of the edition in turn (\"Put Odessa la Contessa on ...\") and records\n"
        "the tag that appears, alone, on the enrolment reader or any floor. A tag already enrolled to\n"
        "another character is refused (it says whose); two new tags at once are refused; a character's\n"
        "new tag replaces its old one. Enter skips the character asked for, q then Enter stops. The tag\n"
        "registry (tags.json in the state directory) is saved after each tag. The questions are asked\n"
        "in --lang's language, else the locale's (LC_ALL, LC_MESSAGES, LANG), else in English.\n\n"
        "With --hardware=sim (the default when the configuration names no real reader) there is\n"
        "nobody to put tags down, so a demo player does: each character's simulated tag (or the tag\n"
        "it already has) is put on the castle and enrolled, in virtual time.");
    line.visible.add_options()                                                                              //
        ("config", po::value(&configFile), "the castle configuration (default: the simulated castle)")      //
        ("edition", po::value(&edition), "classic or 2024 (default: the castle's edition)")                 //
        ("hardware", po::value(&hardware), "sim or real (default: the configuration's)")                    //
        ("tags", po::value(&tagsFile), "the tag registry (default: tags.json in the state directory)")      //
        ("skip", po::value(&skipLists)->composing(), "characters not to ask for (slugs, comma separated)")  //
        ("missing", po::bool_switch(&onlyMissing), "ask only for characters without a tag");
    addLanguageOption(line.visible, language);
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;
    std::string badLanguage;
    const auto told = commandLanguage(language, badLanguage);
    if (!told) return usageError("enrol", badLanguage);

    config::CastleConfig castle;
    castle.daemon.stateDirectory = config::defaultStateDirectory();
    castle.daemon.database = "games.sqlite";
    if (!configFile.empty()) {
        // The readers in force: castle.ini when the set-up saved one (config_in_force.hpp).
        auto inForce = config::configInForce(configFile);
        if (inForce.check.status != config::ConfigCheck::Status::Valid)
            throw config::ConfigError(inForce.check);
        castle = std::move(inForce.check.config);
    }
    if (!hardware.empty() && hardware != "sim" && hardware != "real")
        return usageError("enrol", "--hardware is sim or real, not '" + hardware + "'");
    const bool simulated =
        hardware.empty() ? castle.daemon.hardware == config::Hardware::Sim : hardware == "sim";
    if (!simulated && castle.readers.empty())
        return usageError("enrol",
                          "real hardware needs a castle configuration naming its readers (--config FILE)");

    if (edition.empty()) edition = std::string(config::castleEditionName(castle.edition));
    if (edition != "classic" && edition != "2024")
        return usageError("enrol", "--edition is classic or 2024, not '" + edition + "'");
    const engine::Roster& roster = edition == "2024" ? engine::roster2024() : engine::classicRoster();

    const std::filesystem::path tagsPath =
        tagsFile.empty() ? castle.tagRegistryPath() : std::filesystem::path(tagsFile);
    drivers::TagRegistries registries = drivers::loadTagRegistriesIfPresent(tagsPath);
    std::string why;
    const auto asked = charactersToAsk(roster, skipLists, onlyMissing, registries[edition], edition, why);
    if (!asked) return usageError("enrol", why);
    return enrolAll(*asked, castle, simulated, edition, tagsPath, registries, words::Words(*told));
}

}  // namespace vivaref::daemon
