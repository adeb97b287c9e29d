"""Pieces of the Chinese citation grammar shared by `zh.py` (references, repeals) and
`zh_amend.py` (amendment operations): unit tokens, runs of them, quotes, instrument names.

A *run* is a list of unit tokens joined by list words, e.g. "第十条第一款、第二款",
"第十条至第十二条", "第三十五条第二款第（一）项、第（三）项". `targets()` expands a run
into (article, clause, point) label triples in the form of unit ids ("10-1", "2", "1").
"""
from __future__ import annotations

import re

from ..parse.numerals import CN_NUM, cn_to_int

N = f"[{CN_NUM}]+"                                   # a numeral: 一百零二, 12, １２
# one unit token: 第十条 / 第十条之一 (not 第X条例), 第二款, 第（一）项 / 第一项
TOKEN = rf"第[（(]?{N}[）)]?(?:条(?:之{N})?(?!例)|款|项)"
# words that join tokens into a list or a range: 、 和 或者 及 以及 至 到 —
SEP = r"(?:、|和|或者|或|及|以及|至|到|—|－|～)"
RANGE = {"至", "到", "—", "－", "～"}
RUN = rf"{TOKEN}(?:{SEP}?{TOKEN})*"
RE_RUN = re.compile(RUN)
RE_TOK = re.compile(rf"(?P<sep>{SEP})?第[（(]?(?P<n>{N})[）)]?"
                    rf"(?:(?P<art>条)(?:之(?P<z>{N}))?|(?P<cl>款)|(?P<pt>项))")

# Codes that Chinese texts (judicial interpretations above all) cite without 《》:
# "依照民事诉讼法第一百一十九条". Longest first, so that 企业破产法 wins over 破产法.
BARE_NAMES = sorted("""宪法 刑法 民法典 民法通则 民法总则 合同法 物权法 担保法 侵权责任法 婚姻法 继承法
收养法 民事诉讼法 刑事诉讼法 行政诉讼法 海事诉讼特别程序法 仲裁法 专利法 商标法 著作权法
票据法 公司法 证券法 保险法 企业破产法 海商法 劳动法 劳动合同法 行政处罚法 行政许可法
行政复议法 国家赔偿法 治安管理处罚法 反不正当竞争法 消费者权益保护法 工会法 立法法 监察法
土地管理法 城乡规划法 测绘法 动物防疫法 食品安全法 食品卫生法 药品管理法 产品质量法
道路交通安全法 环境保护法 税收征收管理法 银行业监督管理法 商业银行法 信托法 拍卖法 招标投标法
反垄断法 电子商务法 个人信息保护法 网络安全法 数据安全法 未成年人保护法""".split(), key=len, reverse=True)

# What a name in 《》 must end with to be a legal instrument (not 《营业执照》, 《检疫合格证明》):
RE_INSTRUMENT = re.compile(r"(?:法|法典|条例|规定|办法|细则|决定|解释|规则|批复|通知|意见|章程|"
                           r"公约|协定|条约|条令|纲要|准则|修正案)$")
RE_TRAILING_NOTE = re.compile(r"[（(][^（）()]*[）)]$")   # 《X（试行）》, 《X（二）》, 《X（2018年修正）》
# an instrument word right before 第…条 that we do not recognise: 该法第十条, 实施条例第三条
RE_UNKNOWN_BEFORE = re.compile(r"(?:法|条例|办法|规定|细则|规则|解释|决定|条约|公约|协定)$")

QFILL = "\ue000"         # masked quoted text (same length as the original, so spans map 1:1)
# a masked quotation, possibly over several paragraphs and without its closing mark
QUOTE = f"“[{QFILL}“\\n]*”?"
# a line that starts a new instruction ends a quotation someone forgot to close
RE_INSTRUCTION = re.compile(rf"^(?:{N}、|\d+[.．、]|第{N}条\s)?(?:将|在|删去|删除|增加|原第|修改《|本修正案|本决定)")


def is_instrument_name(name: str) -> bool:
    s = name.strip()
    for _ in range(2):
        s = RE_TRAILING_NOTE.sub("", s)
    return bool(RE_INSTRUMENT.search(s))


def article_label(num: str, zhiyi: str | None = None) -> str:
    """'十', '一' -> '10-1' (the label of 第十条之一 in unit ids)."""
    return f"{cn_to_int(num)}-{cn_to_int(zhiyi)}" if zhiyi else str(cn_to_int(num))


Triple = tuple[str | None, str | None, str | None]


def targets(run: str, art: str | None = None, clause: str | None = None) -> list[Triple]:
    """Expand a run into (article, clause, point) triples. `art` / `clause` give the context
    a run that starts below the article level refers to ("第二款" in article 34 -> ("34", "2"))."""
    toks = []
    for m in RE_TOK.finditer(run):
        level = 0 if m.group("art") else 1 if m.group("cl") else 2
        label = article_label(m.group("n"), m.group("z")) if level == 0 else str(cn_to_int(m.group("n")))
        toks.append((level, label, m.group("sep")))
    cur: list[str | None] = [art, clause, None]
    out: list[Triple] = []
    for i, (level, label, sep) in enumerate(toks):
        prev = toks[i - 1] if i else None
        if sep in RANGE and prev and prev[0] == level and prev[1].isdigit() and label.isdigit():
            for v in range(int(prev[1]) + 1, min(int(label), int(prev[1]) + 200)):
                cur[level] = str(v)
                out.append(tuple(cur))
        cur[level] = label
        cur[level + 1:] = [None] * (2 - level)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if nxt and nxt[0] > level and not nxt[2]:
            continue            # 第十条 is refined by the 第一款 that follows it
        out.append(tuple(cur))
    return out


def first_level(run: str) -> int:
    """0 if the run starts with an article, 1 with a clause, 2 with a point."""
    m = RE_TOK.match(run)
    return 0 if m.group("art") else 1 if m.group("cl") else 2


def mask_quotes(text: str) -> str:
    """Replace what stands inside “…” by QFILL, keeping length and line breaks. A quotation
    runs over paragraphs (each reopens with “, only the last closes), and ends at a line
    that starts a new instruction when its closing mark was forgotten."""
    out, inside = [], False
    for line in text.split("\n"):
        if inside and not line.startswith("“") and RE_INSTRUCTION.match(line):
            inside = False
        chars = []
        for ch in line:
            if ch == "“":
                inside = True
                chars.append(ch)
            elif ch == "”":
                inside = False
                chars.append(ch)
            else:
                chars.append(QFILL if inside else ch)
        out.append("".join(chars))
    return "\n".join(out)


def strip_state(name: str) -> str:
    return re.sub(r"^中华人民共和国", "", name.strip())
