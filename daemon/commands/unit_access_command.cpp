// `vivaref unit-access`: the systemd drop-in that gives vivaref.service the
// devices, groups and port its configuration uses, and no others
// (daemon/config/unit_access.hpp). systemd/vivaref-generator runs it at boot
// and at every `systemctl daemon-reload`.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "daemon/commands/command.hpp"
#include "daemon/commands/command_line.hpp"
#include "daemon/config/config_check.hpp"
#include "daemon/config/config_in_force.hpp"
#include "daemon/config/unit_access.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

namespace {

// Writes `text` to `file` whole or not at all: a temporary beside it, then a
// rename, so systemd never reads half a drop-in.
bool writeWhole(const std::filesystem::path& file, const std::string& text, std::string& why) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
        why = "cannot make " + file.parent_path().string() + ": " + ec.message();
        return false;
    }
    const auto temporary = file.string() + ".new";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            why = "cannot write " + temporary;
            return false;
        }
    }
    std::filesystem::rename(temporary, file, ec);
    if (ec) {
        why = "cannot rename " + temporary + " to " + file.string() + ": " + ec.message();
        return false;
    }
    return true;
}

}  // namespace

int runUnitAccess(const std::vector<std::string>& args) {
    std::string configFile = "/etc/vivaref/vivaref.ini", output;
    CommandLine line(
        "unit-access", "vivaref unit-access [--config FILE] [--output FILE]",
        "Prints the systemd drop-in for vivaref.service that lets it reach exactly what the\n"
        "configuration in force uses (castle.ini in its state directory when the host page's\n"
        "set-up saved a valid one, else FILE): DeviceAllow= for each SPI, serial and I2C bus of its\n"
        "readers and each GPIO chip of its keys, LEDs and chip selects; SupplementaryGroups= for the\n"
        "groups that own them; SocketBindAllow= for its http_port. The simulated castle gets no device\n"
        "and no group. The packaged service runs it at boot and at every 'systemctl daemon-reload'\n"
        "(its generator), so after changing the configuration: sudo systemctl daemon-reload && sudo\n"
        "systemctl restart vivaref (a castle saved by the set-up needs neither:\n"
        "vivaref-reconfigure.path does it). Exit status: 0 written, 1 the configuration has problems\n"
        "(nothing is written), 2 bad command line or a file that cannot be read or written.");
    line.visible.add_options()("config", po::value(&configFile),
                               "the castle configuration (default: /etc/vivaref/vivaref.ini)")(
        "output", po::value(&output),
        "write the drop-in to this file (whole, by a rename) instead of printing it");
    po::variables_map vm;
    if (auto stop = parseCommandLine(line, args, vm)) return *stop;

    // The configuration in force: castle.ini of its state directory when the
    // set-up saved a valid one, as serve decides (config_in_force.hpp).
    const auto inForce = config::configInForce(configFile);
    const auto& check = inForce.check;
    if (check.status != config::ConfigCheck::Status::Valid) {
        for (const auto& p : check.problems) std::cerr << p.text() << "\n";
        std::cerr << "vivaref unit-access: the configuration cannot be used ('vivaref check-config "
                  << inForce.file().string() << "' says why); nothing written\n";
        return check.status == config::ConfigCheck::Status::Unreadable ? kExitUsage : kExitRefused;
    }
    const auto text = config::unitDropIn(config::unitAccess(check.config), inForce.file().string());
    if (output.empty()) {
        std::cout << text;
        return kExitOk;
    }
    std::string why;
    if (!writeWhole(output, text, why)) {
        std::cerr << "vivaref unit-access: " << why << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace vivaref::daemon
