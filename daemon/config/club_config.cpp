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

std::string clubConninfo(const ClubConfig& club) {
    std::string password = club.password;
    if (!club.passwordFile.empty()) {
        std::ifstream in(club.passwordFile);
        if (!in)
            throw std::runtime_error("the club's password file " + club.passwordFile.string() +
                                     " cannot be read; check that it exists and that this user may read it");
        std::stringstream text;
        text << in.rdbuf();
        password = text.str();
        while (!password.empty() && (password.back() == '\n' || password.back() == '\r')) password.pop_back();
    }
    std::string info =
        "host=" + conninfoQuote(club.host) + " port=" + conninfoQuote(std::to_string(club.port)) +
        " dbname=" + conninfoQuote(club.database) +
        " user=" + conninfoQuote(club.user.empty() ? defaultClubUser(club.database, club.table) : club.user);
    if (!password.empty()) info += " password=" + conninfoQuote(password);
    info += " sslmode=" + conninfoQuote(club.sslmode);
    if (!club.sslRootCert.empty()) info += " sslrootcert=" + conninfoQuote(club.sslRootCert.string());
    info += " connect_timeout=" + conninfoQuote(std::to_string(club.connectTimeout));
    info += " application_name=" + conninfoQuote("vivaref " + club.table);
    return info;
}

}  // namespace vivaref::config
