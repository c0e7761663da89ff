#include "daemon/table/host_line.hpp"

namespace vivaref::table {

referee::HostRequest hostRequest(const trace::HostLine& host) {
    switch (host.kind) {
        case trace::HostKind::NewGame: {
            referee::NewGameRequest request{host.payload,
                                            host.players,
                                            host.favourites == "physical" ? referee::FavouritesMode::Physical
                                                                          : referee::FavouritesMode::Dealt,
                                            {},
                                            {},
                                            std::nullopt,
                                            {}};
            if (host.teaching.is_boolean()) request.teaching = host.teaching.get<bool>();
            // The trace reader checked the form already.
            if (host.bots.is_array())
                if (auto bots = referee::readBotSeats(host.bots);
                    auto* seats = std::get_if<std::vector<referee::BotSeatRequest>>(&bots))
                    request.bots = std::move(*seats);
            if (host.seats.is_array())
                if (auto seats = referee::readSeatSetups(host.seats);
                    auto* setups = std::get_if<std::vector<referee::SeatSetup>>(&seats))
                    request.seats = std::move(*setups);
            if (host.members.is_array())
                for (const auto& m : host.members)
                    request.members.push_back(m.is_number_integer()
                                                  ? std::optional<std::int64_t>(m.get<std::int64_t>())
                                                  : std::nullopt);
            return request;
        }
        case trace::HostKind::Deal:
            return referee::DealRequest{host.payload};
        case trace::HostKind::Keep:
            return referee::KeepRequest{host.payload};
        case trace::HostKind::Reshuffle:
            return referee::ReshuffleRequest{host.payload};
        case trace::HostKind::Undo:
            return referee::UndoRequest{};
        case trace::HostKind::Pause:
            return referee::PauseRequest{};
        case trace::HostKind::Resume:
            return referee::ResumeRequest{};
        case trace::HostKind::Reveal:
            return referee::RevealRequest{host.payload};
        case trace::HostKind::Seat: {
            // The trace reader checked the form already; a change of nothing
            // is refused by the referee.
            auto parsed = referee::parseHostRequest(nlohmann::json{{"seat", host.payload}});
            if (parsed.ok()) return std::get<referee::HostRequest>(parsed.value);
            return referee::SeatRequest{};
        }
        case trace::HostKind::Vote:
            return referee::VoteRequest{host.payload};
        case trace::HostKind::Plan:
            return referee::PlanRequest{host.payload};
        case trace::HostKind::Order: {
            referee::OrderRequest request;
            // The trace reader checked the form already.
            for (const auto& c : host.payload.value("characters", nlohmann::json::array()))
                if (c.is_string()) request.characters.push_back(c.get<std::string>());
            return request;
        }
        case trace::HostKind::Abandon:
            break;
    }
    return referee::AbandonRequest{};
}

}  // namespace vivaref::table
