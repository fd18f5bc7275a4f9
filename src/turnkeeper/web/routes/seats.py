"""The players' seats: a character's own command from its player's link, and the referee's
new links (a character's, the players'), each shutting the old link's open pages."""

from __future__ import annotations

from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import decode
from turnkeeper.service import Campaigns
from turnkeeper.views.journal import party_perceives
from turnkeeper.web import phone, render
from turnkeeper.web.core import Reader, Referee, Refused, Token, execute, form_command, links, on
from turnkeeper.web.guard import read_on_loop_if_small
from turnkeeper.web.tokens import Role, issue_hand, renew_token
from turnkeeper.words import unknown

router = APIRouter()


@router.post(
    "/campaigns/{name}/hand",
    response_class=HTMLResponse,
    summary="A character's own command, from its player's link: a declaration",
)
async def hand_command(request: Request, name: str, role: Reader, token: Token) -> str:
    form = await request.body()  # the guard read it, within limits
    body = await read_on_loop_if_small(form_command, form)
    if body.verb not in phone.HAND_VERBS:
        raise Refused(403, "a character's link declares that character's actions only")

    def run(c: Campaigns) -> str:
        now = c.state(name)
        character = request.app.state.tokens.hand(name, token or "", now.everyone)
        if character is None:
            raise Refused(403, "this is not a character's link: ask the referee for yours")
        acting = getattr(body, phone.HAND_VERBS[body.verb])
        if acting.casefold() != character.casefold():
            raise Refused(403, f"this link acts for {character} alone")
        party = now.party_of(character)
        mine = body if party == now.company else body.model_copy(update={"as_party": party})
        records, _ = execute(request, c, name, mine)
        undone = c.undone(name)
        # the players' words: a check's answer read by the phone never says its defence
        said = (r.event.describe_to_party() for r in records if party_perceives(r, undone))
        lines = [line for line in said if line]
        return render.fragment("said", lines=lines[:3])

    return await on(request, name, run)  # the players' display comes by the live stream


@router.post(
    "/campaigns/{name}/hand-link",
    response_class=HTMLResponse,
    summary="A new link for one character's player; its old one stops working",
)
async def new_hand_link(request: Request, name: str, role: Referee) -> str:
    form = parse_qsl(decode(await request.body(), "the form"), keep_blank_values=True)
    asked = dict(form).get("character", "")

    def make(c: Campaigns) -> tuple[str, str]:
        names = list(c.state(name).everyone)  # a world's every party's characters
        character = next((n for n in names if n.casefold() == asked.casefold()), None)
        if character is None:
            raise TurnkeeperError(unknown("character", asked, names, listing=True))
        fresh = issue_hand(c.store, name, character)
        request.app.state.tokens.forget(name)
        return character, fresh

    character, fresh = await on(request, name, make)
    request.app.state.watcher.poke(name)  # the old link's open page is shut now
    base = str(request.base_url).rstrip("/")
    link = base + links(name, fresh).page
    return render.fragment("hand_link", link=link, character=character)


@router.post(
    "/campaigns/{name}/player-link",
    response_class=HTMLResponse,
    summary="A new players' link; the old one stops working, the referee's stays",
)
async def new_player_link(request: Request, name: str, role: Referee) -> str:
    def renew(c: Campaigns) -> str:
        fresh = renew_token(c.store, name, Role.PLAYER)
        request.app.state.tokens.forget(name)
        return fresh

    fresh = await on(request, name, renew)
    request.app.state.watcher.poke(name)  # the old link's open pages are shut now
    base = str(request.base_url).rstrip("/")
    return render.fragment("player_link", link=base + links(name, fresh).page)
