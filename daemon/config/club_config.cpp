#include "daemon/config/club_config.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vivaref::config {

std::string ClubConfig::serverText() const {
    if (isSocketDirectory()) return host + " (unix socket, port " + std::to_string(port) + ")";
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string defaultClubUser(const std::string& database, const std::string& table) {
    return database + "_table_" + table;
}

std::string conninfoQuote(const std::string& value) {
    std::string out = "'";
    for (char c : value) {
        if (c == '\\' || c == '\'') out += '\\';
        out += c;
    }
    return out + "'";
}

namespace {

std::string passwordOf(const std::string& given, const std::filesystem::path& file, const char* what) {
    std::string password = given;
    if (!file.empty()) {
        std::ifstream in(file);
        if (!in)
            throw std::runtime_error(std::string(what) + " " + file.string() +
                                     " cannot be read; check that it exists and that this user may read it");
        std::stringstream text;
        text << in.rdbuf();
        password = text.str();
        while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) password.pop_back();
    }
    return password;
}

std::string conninfoAs(const ClubConfig& club, const std::string& user, const std::string& password,
                       const std::string& application) {
    std::string info = "host=" + conninfoQuote(club.host) +
                       " port=" + conninfoQuote(std::to_string(club.port)) +
                       " dbname=" + conninfoQuote(club.database) + " user=" + conninfoQuote(user);
    if (!password.empty()) info += " password=" + conninfoQuote(password);
    info += " sslmode=" + conninfoQuote(club.sslmode);
    if (!club.sslRootCert.empty()) info += " sslrootcert=" + conninfoQuote(club.sslRootCert.string());
    info += " connect_timeout=" + conninfoQuote(std::to_string(club.connectTimeout));
    info += " application_name=" + conninfoQuote(application);
    return info;
}

}  // namespace

std::string clubConninfo(const ClubConfig& club) {
    return conninfoAs(club, club.user.empty() ? defaultClubUser(club.database, club.table) : club.user,
                      passwordOf(club.password, club.passwordFile, "the club's password file"),
                      "vivaref " + club.table);
}

std::string leagueConninfo(const ClubConfig& club) {
    return conninfoAs(club, club.leagueUser.empty() ? club.database + "_league" : club.leagueUser,
                      passwordOf(club.leaguePassword, club.leaguePasswordFile, "the league's password file"),
                      "vivaref league " + club.table);
}

}  // namespace vivaref::config
