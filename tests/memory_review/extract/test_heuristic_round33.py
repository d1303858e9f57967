"""The thirty-third round of the heuristic (ADR 0093): Turkish "never" / "absolutely … don't"; "my preference" only as
the person's preference; Japanese "現状" (the state things are in now) is this moment's.

Held-out 88's person writes in Turkish: "herhangibir özellik ekler yada düzeltirken **kesinlikle** var olan bir özelliği
bozma !" (when adding or fixing any feature, absolutely do not break an existing one). No signal read Turkish. The verb
comes last in a Turkish clause, so the rule is "asla" (never), "hiçbir zaman" (never), "kesinlikle" (absolutely) or "bir
daha" (ever again) with the clause ending in a verb told not to: "bozma", "yazma", "değiştirmemeli" (must not change).
"silmemeliydi" (should not have deleted) complains of what was done; "kesinlikle olmasın" (let there be none)
describes the data. "bundan böyle" is "from now on", and so is "bundan sonra" with "hep" (always); alone it is as often
"after this".

Held-out 87's "it still same posts even i updated my preference interests" reports a bug in an app's settings: "my
preference" is the person's own only as "my preference is …" or "my preference: …". Held-out 89's "上手く動いています。
現状をメモリーに記憶しておいて" (it works; store the current state in memory) asks to keep a snapshot of now, not a
rule, as "今は" (for now) already says.
"""

from __future__ import annotations

import pytest
from rounds_kit import said

from memory_review.extract.signals import examine


@pytest.mark.parametrize(
    "sentence",
    [
        "herhangibir özellik ekler yada düzeltirken **kesinlikle** var olan bir özelliği bozma !",
        '"data:image/" olan hiçbir tarama sonucunu bu dosyaya **kesinlikle** **yazma**.',
        "Bu problemin bir daha **ASLA** olmaması adına hatayı bul, çalışan kodu **KESİNLİKLE** değiştirme !",
        "Kullanıcının girdiği notları asla silmemeli.",
        "Main dalına hiçbir zaman doğrudan push yapma.",
        "Bundan böyle testleri uv ile çalıştır.",
        "Bundan sonra hep testleri uv ile çalıştır.",
    ],
)
def test_a_turkish_rule_is_found(sentence: str) -> None:
    assert said(sentence) == [sentence]


@pytest.mark.parametrize(
    "sentence",
    [
        "bunları KESİNLİKLE silmemeliydi, sadece değişen bilgileri güncellemeliydi.",  # should not have: a complaint
        "data:image şeklinde ki veriler json'da **kesinlikle olmasın**.",  # let there be none: the data's state
        "Bu sorunu **kesinlikle kalıcı olarak çöz artık**.",  # absolutely fix it for good now: this task
        "Bu filtre paneli her zaman görünür halde olsun.",  # "always" in a spec of one panel: no signal for it
        "kesinlikle harika bir tarama",  # "absolutely great scan": a noun in -ma is no verb told not to
        "Bundan sonra login sayfasını yap.",  # after this, do the login page: the next step
    ],
)
def test_a_turkish_near_miss_is_not(sentence: str) -> None:
    assert said(sentence) == []


def test_my_preference_is_the_persons_only_when_it_says_what_it_is() -> None:
    assert examine("it still same posts even i updated my preference interests") is None
    assert said("My preference is tabs over spaces.") == ["My preference is tabs over spaces."]
    assert said("my preference: short commit messages") == ["my preference: short commit messages"]  # git
    assert said("My preference is tabs.") == []  # a preference said once, nothing chosen against, waits (ADR 0110)


def test_remembering_the_state_things_are_in_now_is_no_rule() -> None:
    assert said("上手く動いています。現状をメモリーに記憶しておいて") == []
    rule = "作品名のディレクトリに移動することを覚えておいて"
    assert said(rule) == [rule]
