"""Dates written in a question (retrieve/question_dates.py `question_date`): the forms read in each language,
the time before a date, and what is no date."""
import datetime as dt

from workbench.retrieve.question_dates import question_date
from workbench.retrieve.route import article_years, classify, topic


def test_a_date_asked_about_the_time_before_is_the_day_before():
    assert question_date("2022年8月1日之前，未依法申报的罚款是多少？") == dt.date(2022, 7, 31)
    assert question_date("2022年8月1日前后，罚款有何不同？") == dt.date(2022, 8, 1)      # before and after
    assert question_date("Before 1 August 2022, what was the fine?") == dt.date(2022, 7, 31)
    assert question_date("Trước ngày 01/07/2021, mức phạt là bao nhiêu?") == dt.date(2021, 6, 30)
    # "before" said of another date than the one read, or of no date, moves nothing
    assert question_date("合同于2020年3月1日签订，交货日期在2020年5月1日之前，应如何处理？") == dt.date(2020, 3, 1)
    assert question_date("Ngày 01/07/2021, đương sự nộp đơn trước ngày xét xử.") == dt.date(2021, 7, 1)


def test_the_written_vietnamese_date_and_year_first_figures_are_dates():
    """"ngày 15 tháng 3 năm 2015" is how Vietnamese laws and letters write a date; "tháng 3 năm 2015" /
    "tháng 3/2015" a month (its first day, as "2015年3月"); "2015.3.15" / "2015/3/15" a date in figures,
    year first. A date that does not exist, or a rule number, is none."""
    assert question_date("Ngày 15 tháng 3 năm 2015, phòng khám X hoạt động không phép thì bị phạt thế nào?") == dt.date(2015, 3, 15)
    assert classify("Ngày 15 tháng 3 năm 2015, phòng khám X hoạt động không phép thì bị phạt thế nào?").type == "temporal"
    assert question_date("Vào tháng 3 năm 2015, phòng khám X bị phạt thế nào?") == dt.date(2015, 3, 1)
    assert question_date("Tháng 3/2015 phòng khám X bị phạt thế nào?") == dt.date(2015, 3, 1)
    assert question_date("Trước ngày 15 tháng 3 năm 2015, mức phạt là bao nhiêu?") == dt.date(2015, 3, 14)
    assert question_date("2015.3.15，某诊所无证营业") == question_date("2015/3/15某诊所无证营业") == dt.date(2015, 3, 15)
    assert question_date("ngày 31 tháng 2 năm 2015") is None
    assert question_date("Rule 2015.3.15.1 applies to whom?") is None
    # a form whose match is no real date gives way to the next match; a dotted number, a path, a version
    # string or a document number is no date, and never hides one written after it
    assert question_date("Ngày 31 tháng 2 năm 2015 hoặc ngày 1 tháng 3 năm 2015?") == dt.date(2015, 3, 1)
    assert question_date("Under Rule 2019.1.35, what applied on 1 March 2016?") == dt.date(2016, 3, 1)
    assert question_date("Under Section 2019.1.3, what was the penalty on 1 March 2016?") == dt.date(2016, 3, 1)
    assert question_date("see /2015/3/15/notice, v2020.1.1, 2015/3.15") is None
    assert question_date("Nghị định tháng 3/2015/NĐ-CP quy định gì?") is None
    assert question_date("The clinic opened on 2015/3/15.") == dt.date(2015, 3, 15)
    assert question_date("mùng 5 tháng 3 năm 2015, phòng khám bị phạt thế nào?") == dt.date(2015, 3, 5)
    # the time before each new form is the day before
    assert question_date("2015.3.15之前，罚款多少？") == question_date("Before 2015/3/15, what fine?") == dt.date(2015, 3, 14)
    assert question_date("Trước tháng 3 năm 2015, mức phạt là bao nhiêu?") == dt.date(2015, 2, 28)
    # a date is no version year of an article, and no topic
    assert article_years("Điều 8 Luật Khám bệnh ngày 15 tháng 3 năm 2012 quy định gì?") == [None]
    assert "tháng" not in topic("Ngày 15 tháng 3 năm 2015, phòng khám X bị phạt thế nào?", [])


def test_a_part_of_a_year_is_the_middle_of_that_part():
    """"2016年初", "late 2017", "cuối năm 2015" date the facts more closely than the year alone (1 July): a
    version that took effect in February is not yet the law of "early" that year."""
    for q, day in (("2016年初，某屠宰厂对生猪注水", dt.date(2016, 2, 1)), ("2015年底，某公司", dt.date(2015, 12, 1)),
                   ("2018年下半年", dt.date(2018, 10, 1)), ("2019年春天", dt.date(2019, 4, 15)),
                   ("In early 2022, a clinic", dt.date(2022, 2, 1)), ("the second half of 2018", dt.date(2018, 10, 1)),
                   ("mid-2017", dt.date(2017, 7, 1)), ("cuối năm 2015", dt.date(2015, 12, 1))):
        assert question_date(q) == day, q
    assert question_date("某屠宰厂2016年初通过验收开始屠宰") == dt.date(2016, 2, 1)     # facts, though 通过 follows
    for q in ("2016年初次申请许可证", "2016年初步审查", "In 2016", "2016年", "2016年春节期间", "2019年末次检验",
              # the time a version was made, not of the facts
              "2018年初修订的《条例》", "Under the late 2018 revision of the Act", "What did the mid-2018 amendment change?"):
        assert question_date(q) is None, q


def test_the_law_of_early_in_a_year_is_the_version_then_in_force(wb):
    from workbench.core.config import RetrievalConfig
    q = "In {} 2022, under the Circular on the Equipment of Specialised Clinics then in force, what equipment did a " \
        "dental clinic need in each treatment room?"
    assert wb.retrieve(q.format("early"), RetrievalConfig(mode="graph")).cited == ["equipment-circular@2017/a3"]
    assert wb.retrieve(q.format("late"), RetrievalConfig(mode="graph")).cited == ["equipment-circular@2022/a3"]
