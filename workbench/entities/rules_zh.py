"""Entity mention rules for Chinese legal text: names of bodies by level prefix and head (部门 / 机构 / 人民政府), parties by head (者 / 人员 / 企业), documents (许可证 / 证明), 《titles》.

Each rule returns (type, start, end, confidence) spans; overlaps are resolved by
`extract.extract`. See extract.py for the types and how confidence is set."""
from __future__ import annotations

import re

# -- closed word classes -----------------------------------------------------------------------
# function words, modals, prepositions, determiners, conjunctions, adverbs of time and verbs of
# permission / possession / issuing: a name starts after the last of them (应当 | 县级…部门, 取得 | 许可证)
_ZH_STOP_WORDS = tuple("""应当 不得 可以 必须 负责 会同 依法 按照 依照 依据 根据 督促 鼓励 引导 组织 要求 责令 通知 告知
    指导 支持 协助 委托 允许 准许 禁止 取得 持有 出具 核发 发给 颁发 签发 提供 申请 办理 凭 属于 能够 予以 其他 有关
    相关 上述 前款 本款 该 各 其 本 于 以下称 方可 所称 所指 任何 所有 是指 是 为 同一 每一 符合 立即 及时 相应 但 予
    由于 对于 关于 因为 作为 给予 未经""".split())
# administrative acts on a licence, a body or a party (吊销 | 许可证, 通报 | X部门, 倡导 | X者, 扶持 | X厂),
# dealings with documents (索取 / 冒用 / 变造), harm to parties (欺骗 / 误导), hiring / receiving (聘用 / 接到):
# a transitive verb governs the name, it never begins it
_ZH_ACTS = tuple("""发放 换发 补发 吊销 撤销 注销 取消 收回 收缴 扣押 扣留 暂扣 没收 变更 载明 注明 标明 通报 报告 报送 报请
    移送 移交 派驻 增强 倡导 加强 实行 实施 加盖 担任 确定 指定 阻碍 阻挠 妨碍 拒绝 成立 设立 设置
    执行 从事 配备 扶持 推行 限制 严禁 接受 接收 听取 征求 欺骗 误导 培训 考核 索取 使用 冒用 变造 涂改 规定
    聘用 聘请 雇用 雇佣 接到 收到 任命 邀请 纳入""".split())
# verbs that govern a party, body or document and never name one: at the head of a name's modifier
# they are the predicate (保护 | 举报人, 接到 | 消费者…, 代表 | X机构, 落实 | 企业…); after a noun inside it
# they may form an activity noun (消费者权益保护), so they are cut only where the modifier begins
_ZH_GOVERN = tuple("""保护 保障 维护 落实 包括 公布 公开 明确 需要 代表 损害 侵害 侵犯 奖励 表彰 追究 召集 约谈 联系
    帮助 配合 协调 确认 动员 告诫 保证 依靠 督查""".split())
# a modal is followed by its verb: a name right after 应当 / 可以 / 不得 / 必须 / 须 begins with that verb
_ZH_MODAL = re.compile(r"(?:应当|可以|不得|必须|须)$")
# staff named by a public function (执法 / 监督 / 检疫 …) act for their body: an office, not a regulated party
_ZH_OFFICIAL = re.compile(r"(?:执法|监督|监察|稽查|检疫|监测)[^、]*人员$")
# verbs that take a party or a document as object (查验供货者, 随附合格证明); not inside authority names
_ZH_VERBS = tuple("监督 检查 查验 审查 审核 发现 随附 附具 标注 建立 出示 收取 进入 回收 查明 调查".split())
# a leading preposition or existential verb (经X批准, 到X报检, 有X签名, 无X证明) is not part of the name
_ZH_LEAD = re.compile(r"^(?:未经|经|报|除|到|往|持|附有|有(?![关权限效害毒机])|转让|出借|伪造)+")
_ZH_LEAD_DOC = re.compile(r"^(?:无|没有)(?![害公规])")
_ZH_STOP_CHARS = set("，。；：、！？（）()《》“”\"' \n\t的由向对将在并及或被使给从与和者上了")
# words that begin or end with a function character are words, not function word + rest
# (使用 / 从业 / 给予 / 在编; 各种 / 本身 / 其中; 行为 / 作为)
_ZH_FUNC_IN_WORD = ("使用", "从业", "从事", "给予", "在编", "由于", "对于", "关于", "各种", "各自", "各项", "本身", "其中",
                    "行为", "作为", "认为", "成为", "因为", "应该", "目的")
# institutions named by the service they sell (检验 / 认证 / 金融 / 医疗 …) are regulated parties,
# not public bodies -- unless their name carries an administrative function (监督检验机构)
_ZH_SERVICE = re.compile(r"(?:认证|检验|检测|复检|初检|鉴定|金融|医疗|培训|中介|咨询|养老|托幼|教育|专业|技术|科研)$")
_ZH_PUBLIC = re.compile(r"监督|管理|行政|主管|执法|检疫")

# -- level prefixes and heads of public bodies ---------------------------------------------------
# a list of administrative units (省、自治区、直辖市 / 市、县) is one level prefix
_ZH_UNIT = r"(?:省|自治区|直辖市|设区的市|自治州|自治县|市|县|乡|民族乡|镇)"
_ZH_UNITS = rf"{_ZH_UNIT}(?:、{_ZH_UNIT})+"
_ZH_GOV = (rf"(?:国务院|(?:县|设区的市|市|省|乡)级以上(?:地方)?(?:各级)?人民政府|{_ZH_UNITS}人民政府|"
           r"(?:地方各级|各级|县级|乡级|乡镇|设区的市级?|省级|本级|同级|上级|上一级|下级|下一级|所在地|县)(?:地方)?人民政府)")
# level words are single words (本级, 上一级): a name never starts on their 级
_ZH_LEVEL = (rf"(?:(?:{_ZH_UNITS}|同级|本级|上级|上一级|下级|下一级|地方各级|各级|所在地|"
             r"(?:县|设区的市|市|省)级以上(?:地方)?|(?:省|设区的市|市|县|乡)级))")
_ZH_AUTH_HEAD = r"(?:主管部门|行政部门|管理部门|部门|机构|委员会|机关)"
_ZH_NO_MOD = "应当 不得 可以 必须 负责 会同 依法 按照 依照 根据 组织 责令 督促 指导 要求 委托".split() + list(_ZH_ACTS)
# a modifier character: not a modal, act verb or function word, no coordination into a new level
_ZH_MOD = (rf"(?:(?!{'|'.join(_ZH_NO_MOD)}|[的由向对将在并及或被]|[和与][有其相各同上本县省市国乡地设])"
           r"[\u4e00-\u9fff、])")
# a character of a department's domain: no modal, act verb or function word begins at it (应当根据… is a predicate)
_ZH_DOMAIN = rf"(?:(?!{'|'.join(_ZH_NO_MOD)}|[的由向对将在并及或被])[\u4e00-\u9fff])"
# a level word alone may name a body (上一级机关, 同级部门); a 人民政府 needs a name to head a department
ZH_TIER1 = re.compile(rf"{_ZH_GOV}(?:{_ZH_MOD}{{1,32}}?等?{_ZH_AUTH_HEAD})?|{_ZH_LEVEL}{_ZH_MOD}{{0,32}}?等?{_ZH_AUTH_HEAD}")
ZH_COURT = re.compile(r"(?:最高|高级|中级|基层|地方各级|各级)?人民(?:法院|检察院)|公安机关|海关")
ZH_HEADS = [("authority", re.compile(_ZH_AUTH_HEAD), 0.6, 20),
            # a ministry ends in 部; 部 after 内 / 全 / 总 / 干 / a body part means "part", not a ministry
            ("authority", re.compile(r"(?<![内外全局总干头颈胸腹背腿蹄尾面底顶东西南北中])部(?![门分位件队长])"), 0.6, 8),
            # a numeral before 人 counts people (不少于2人), it does not name them
            # a class noun that modifies a following noun (人员名单, 企业名称) is attributive, not a name
            ("party", re.compile(r"(?<![或前后再两三二一四五六七八九十百几多数\d])者|人员(?!名单|名录|编制|信息)|"
                                 r"(?<![个他工家两三二一四五六七八九十百几多数\d])人(?![民员大身体畜工口类格为群数次力食])|"
                                 r"(?:企业|单位|个人)(?!名称|标准|信息|卫生|隐私|财产|内部|所在地|住所|地址)|"
                                 r"(?<![出进建办开])(?:[厂场][（(][厂场户点、]{1,5}[）)]|厂(?![房区]))|户|[货畜业船车]主"), 0.65, 20),
            ("document", re.compile(r"许可证|合格证明文件|合格证明?|证明(?:文件|(?=[，。；、：,;:）)和或的等及与]|$))|证书|执照|批准文件|"
                                    r"登记证|凭证|标志牌|通知单|(?:决定|通知)书"), 0.7, 20)]
ZH_INSTRUMENT = re.compile(r"《([^《》\n]{1,60})》")
ZH_FORM = re.compile(r"(?:证明|合格证|许可证|证书|执照|[表单]|通知书|决定书)$")
# the statutory penalty formula 直接负责的主管人员 is one name despite its 的
ZH_FORMULA = re.compile(r"直接负责的主管人员")
_ZH_GENERIC = ("企业", "个人", "单位", "许可证", "合格证", "证书", "执照")     # a name only in context
_ZH_BARE = _ZH_GENERIC + ("货主", "畜主", "业主", "船主", "车主")
# class nouns that a verb directly before them turns into a role noun (申请人, 检查人员, 派驻机构)
_ZH_CLASS_HEADS = ("人", "者", "人员", "单位", "企业", "机构", "部门", "主管部门", "行政部门", "管理部门", "委员会", "机关")


def _cut(mod: str, type_: str, head: str) -> int:
    """Where the name starts inside the scanned modifier: after the last stop word / act verb."""
    cut = 0
    for w in _ZH_STOP_WORDS + _ZH_ACTS + (_ZH_VERBS if type_ != "authority" else ()):
        i = mod.rfind(w)
        if i < 0:
            continue
        end, verb = i + len(w), w in _ZH_ACTS or w in _ZH_VERBS
        if len(w) == 1 and (mod[end:end + 1] == "级" or mod[i:i + 2] in _ZH_FUNC_IN_WORD
                            or mod[i - 1:end] in _ZH_FUNC_IN_WORD):
            continue                                  # 本级 / 各级 are level words, 各种 / 行为 words
        if verb and (mod[end:end + 1] == "地" or re.match(_ZH_AUTH_HEAD, mod[end:])):
            continue                                  # 接受地 is a place, 监督机构 a body: not verb + object
        if w in ("有关", "其他") and mod[i - 1:i] == "等":  # 卫生、工商等有关部门: the list's closing 等有关
            continue
        if end == len(mod) and (head in ("人", "者") or (verb and type_ != "document" and head in _ZH_CLASS_HEADS)):
            continue                                  # 申请人, 检查人员, 派驻机构: verb + class noun is a role noun
        if verb and mod[end:end + 2] in _ZH_VERBS + ("管理",):
            continue                                  # 监督检查人员, 监督管理人员: verb + verb is a compound noun
        cut = max(cut, end)
    # an existential 有 inside the modifier is a verb (佩戴有X部规定的); 有关 / 有效 / 有害 … are words
    have = [h.end() for h in re.finditer(r"(?<![所具拥含])有(?![关权限效害毒机])", mod) if h.end() < len(mod)]
    return max([cut] + have)


def _left_edge(text: str, pos: int, reach: int, type_: str, head: str) -> int | None:
    """The start of the name whose modifier ends at `pos`: back to the nearest stop character, then
    after the last stop word / act verb. None when neither is found within `reach`: the name
    would start inside a word."""
    start = pos
    while start > 0 and pos - start < reach and (text[start - 1] not in _ZH_STOP_CHARS
                                                 or text[start - 1:start + 1] in _ZH_FUNC_IN_WORD
                                                 or text[start - 2:start] in _ZH_FUNC_IN_WORD):
        start -= 1
    cut = _cut(text[start:pos], type_, head)
    if start > 0 and text[start - 1] not in _ZH_STOP_CHARS and not cut:
        return None
    rest, role_noun = text[start + cut:pos], head in _ZH_CLASS_HEADS
    verb = next((w for w in _ZH_GOVERN if rest.startswith(w) and (len(rest) > len(w) or not role_noun)), "")
    if not verb and _ZH_MODAL.search(text[:start + cut]) and len(rest) >= 2 and not _ZH_LEAD.match(rest):
        if len(rest) == 2:
            return None                 # 应当落实 | 企业…: a bare class noun after the verb modifies what follows
        verb = rest[:2]
    return start + cut + len(verb)


def spans(text: str) -> list[tuple[str, int, int, float]]:
    # a 《title》 that ends in a document head (《动物检疫合格证明》, 《…审批表》) names a form, not an instrument
    found = [("document" if ZH_FORM.search(m.group(1)) else "instrument", m.start(1), m.end(1), 0.95)
             for m in ZH_INSTRUMENT.finditer(text)]
    found += [("authority", m.start(), m.end(), 0.95) for m in ZH_COURT.finditer(text)]
    found += [("party", m.start(), m.end(), 0.7) for m in ZH_FORMULA.finditer(text)]
    for m in ZH_TIER1.finditer(text):
        start = m.start()
        if text[:start].endswith("地"):               # a place qualifier (所在地 / 输入地 / 事故发生地) before a level
            edge = _left_edge(text, start, 8, "authority", "")
            start = start - len(_ZH_LEAD.sub("", text[edge:start])) if edge is not None else start
        end = m.end()
        # a government followed by a 、-list of its departments' domains (国务院农业行政、质量监督…和国家X等有关
        # 部门) heads one name that ends at the list's shared head; where none closes it, the government
        # alone is a fragment of a name whose end cannot be told: dropped
        if re.fullmatch(_ZH_GOV, m.group()) and re.match(rf"{_ZH_DOMAIN}{{1,8}}、", text[end:]):
            shared = re.match(rf"(?:{_ZH_DOMAIN}{{1,8}}、)+[\u4e00-\u9fff]{{1,24}}?{_ZH_AUTH_HEAD}", text[end:])
            if not shared:
                continue
            end += shared.end()
        found.append(("authority", start, end, 0.9 if end - start > 4 else 0.85))
    for type_, rx, conf, reach in ZH_HEADS:
        for m in rx.finditer(text):
            edge = _left_edge(text, m.start(), reach, type_, m.group())
            if edge is None:
                continue
            mod = "" if m.group() == "个人" else text[edge:m.start()]   # 个人 takes no modifier
            mod = _ZH_LEAD.sub("", mod) if type_ != "party" or len(mod) > 2 else mod
            mod = _ZH_LEAD_DOC.sub("", mod) if type_ == "document" else mod
            # a list closed by 等 names its members before the class it belongs to (学校、建筑工地等集中用餐单位):
            # a party or document name is the class after 等 (authorities share one head, see _list_start)
            close = [k.end() for k in re.finditer(r"(?<![同平对相高中初])等(?![级同于])", mod)]
            mod = mod[close[-1]:] if type_ != "authority" and close and len(mod) - close[-1] >= 2 else mod
            begin = m.start() - len(mod)
            surface = mod + m.group()
            if m.group() == "部" and len(mod) < 2:
                continue                            # a ministry has a name before 部
            if (not mod and surface not in _ZH_BARE) or (m.group() == "户" and len(mod) < 2) or \
                    (surface in _ZH_GENERIC and text[max(0, m.start() - 1):m.start()] in ("本", "该", "其", "各", "此")):
                continue                            # 本单位, 该企业: the party already named, not a new one
            if type_ == "authority" and m.group() == "机构" and _ZH_SERVICE.search(mod) and not _ZH_PUBLIC.search(mod):
                found.append(("party", begin, m.end(), conf))
                continue
            if m.group() == "人员" and (_ZH_OFFICIAL.search(surface) or _staff_of_body(found, text, begin)):
                found.append(("authority", begin, m.end(), conf))
                continue
            if type_ == "authority" and begin > 0 and text[begin - 1] == "、":
                begin = _list_start(text, begin)
            elif type_ != "authority" and mod:
                begin = _shared_modifiers(text, begin)
            found.append((type_, begin, m.end(), 0.5 if surface in _ZH_GENERIC else conf))
    return found


def _staff_of_body(found: list, text: str, begin: int) -> bool:
    """人员 owned by a public body (X部门的工作人员, X机关及其工作人员): its staff, who act for it."""
    own = re.search(r"(?:的|及其)$", text[max(0, begin - 2):begin])
    return bool(own) and (any(t == "authority" and e == begin - len(own.group()) for t, _, e, _ in found)
                          or bool(re.search(r"(?:部门|机关|人民政府|委员会)$", text[:begin - len(own.group())])))


def _shared_modifiers(text: str, begin: int) -> int:
    """Modifiers coordinated before one party or document head share it (餐具、饮具集中消毒服务单位; 专职或者
    兼职…管理人员): extend over a preceding conjunct that is parallel to the word after the conjunction (the
    same length, the same last morpheme: 餐具 / 饮具, 专职 / 兼职), has no head of its own and does not open
    with a verb; a conjunct with its own head (生产者、销售者) or another form (出口商和出口食品生产企业) is a
    second entity."""
    while (mark := re.search(r"(?:、|或者|或|和)$", text[:begin])) is not None:
        s = _left_edge(text, mark.start(), 6, "party", "")
        if s is None:
            break
        seg = _ZH_LEAD.sub("", text[s:mark.start()])
        after = text[mark.end():mark.end() + len(seg)]
        if not 2 <= len(seg) <= 4 or after[-1:] != seg[-1:] or seg.startswith(_ZH_VERBS + _ZH_ACTS + _ZH_GOVERN) or \
                any(rx.search(seg) for _, rx, _, _ in ZH_HEADS) or re.search(r"[等的其该本各]", seg):
            break
        begin = mark.start() - len(seg)
    return begin


def _list_start(text: str, begin: int) -> int:
    """Conjuncts that share one head (铁道、交通行政主管部门; 卫生、工商行政管理等部门) are one name:
    extend over preceding 、-joined modifiers that have no head or party / document noun of their own."""
    while begin > 1 and text[begin - 1] == "、":
        s = _left_edge(text, begin - 1, 10, "authority", "")
        if s is None:
            break
        seg = _ZH_LEAD.sub("", text[s:begin - 1])
        # a conjunct that opens with a verb is an act (检查、…); one that ends with it names a domain (质量监督)
        if not 2 <= len(seg) <= 10 or re.search(_ZH_AUTH_HEAD, seg) or seg.startswith(_ZH_VERBS + _ZH_ACTS) \
                or re.search(r"[人者证户厂场]", seg):
            break
        begin -= len(seg) + 1
        if text[begin - 1:begin] != "、":
            break
    return begin


def bodies(text: str) -> list[tuple[int, int]]:
    """(start, end) of every public body the rules find named in `text` (overlapping readings
    included): version alignment reads an edit inside one as a renaming (link/substance.py)."""
    return [(a, b) for kind, a, b, _ in spans(text) if kind == "authority"]
