// HolderCard, its ElidedLabel and TtlCountdownDelegate, offscreen, fed with plain values.
#include "support/qtest_registry.h"
#include "widgets/elided_label.h"
#include "widgets/holder_card.h"
#include "widgets/ttl_bar.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>
#include <cmath>

using namespace lockscope;

namespace {

// Counts the events of one type an object receives.
struct EventCounter : QObject {
    explicit EventCounter(QEvent::Type type)
        : type(type) {}
    const QEvent::Type type;
    int count = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        count += event->type() == type;
        return false;
    }
};

} // namespace

class HolderCardTest : public QObject {
    Q_OBJECT
private slots:
    // Given the width it asks for, an ElidedLabel shows its whole text, in any script: the
    // status line's "使用 127.0.0.1:23790" was cut by a pixel or two.
    void anElidedLabelAtItsSizeHintShowsItAll() {
        for (const QString& text :
             {QString("using 127.0.0.1:23790"), QString("使用 127.0.0.1:23790"),
              QString("已连接 · 使用 etcd-0.example:2379"), QString("lease 694d a21e 2699 a505")}) {
            ElidedLabel label;
            label.setText(text);
            label.resize(label.sizeHint());
            QCOMPARE(label.shownText(), text);
        }
    }

    void showsTheHolder() {
        HolderCard card;
        QCOMPARE(card.key(), QString());
        card.setHolder({"/locks/demo/694d", "694d", 42, "3.0 s", 5.2, 60, "deploy", {}, false});
        QCOMPARE(card.key(), QString("/locks/demo/694d"));
        auto* bar = card.findChild<TtlBar*>();
        QCOMPARE(bar->text(), QString("6 s of 60 s"));
        QVERIFY(bar->isLow()); // under a quarter left
        card.setHolder({"/locks/demo/694d", "694d", 42, "3.0 s", 30, 60, "deploy", {}, false});
        QVERIFY(!bar->isLow());
        HolderCard::Holder stale{"/locks/demo/694d", "694d", 42, "3.0 s", 1, 60, {}, {}, false};
        // A countdown from an old lookup says nothing of the lease now; the reason is said.
        stale.ttlStale = HolderCard::Holder::Staleness::NotLookedUp;
        card.setHolder(stale);
        QCOMPARE(bar->text(), QString("stale: not looked up within its TTL"));
        QCOMPARE(bar->value(), 0);
        QVERIFY(!bar->isLow()); // not running out: unknown
        stale.ttlStale = HolderCard::Holder::Staleness::EtcdSilent;
        card.setHolder(stale);
        QCOMPARE(bar->text(), QString("stale: etcd is not answering"));
        QCOMPARE(bar->value(), 0);
        card.setHolder({"/locks/demo/694d", "694d", 42, "3.0 s", std::nullopt, 60, {}, {}, false});
        QCOMPARE(bar->text(), QString("not looked up yet"));
        QVERIFY(!bar->isLow()); // unknown is not low
        card.setHolder({"/locks/demo/k", "0", 42, "3.0 s", std::nullopt, 0, {}, {}, false, false});
        QCOMPARE(bar->text(), QString("no lease: held until its key is deleted"));
        QCOMPARE(bar->value(), 0); // no countdown to show
        QVERIFY(card.findChild<QLineEdit*>("holderKey")->isVisibleTo(&card));
        card.clear("Nobody holds /locks/demo");
        QCOMPARE(card.key(), QString());
    }

    // A window whose layout is asked to run again repaints all of its tab widget: a new holder,
    // which comes with most batches of lock events, must not ask.
    // Our own lock's line stays when nobody holds the lock, and a long one cannot widen the card.
    void showsOurOwnLockOnOneElidedLine() {
        HolderCard card;
        card.resize(400, 200);
        card.show();
        QVERIFY(QTest::qWaitForWindowExposed(&card));
        auto* own = card.findChild<ElidedLabel*>("ownLockState");
        QVERIFY(!own->isVisible());
        const QString lost = "Ours: lost since 08:31:02 — " + QString(400, 'x');
        card.setOwnLock(HolderCard::OwnLock{lost, HolderCard::OwnLock::Tone::Bad});
        card.clear("Nobody holds /locks/demo");
        QVERIFY(own->isVisible());
        QCOMPARE(own->text(), lost);
        QVERIFY(own->shownText().endsWith(QChar(0x2026)) &&
                own->shownText().startsWith("Ours: lost"));
        QVERIFY(own->shownText().size() < lost.size());
        QVERIFY(own->styleSheet().contains("#fdecea"));
        QVERIFY(card.minimumSizeHint().width() < 400);
        card.setOwnLock(std::nullopt);
        QVERIFY(!own->isVisible());
    }

    // Nor does a TTL running low: the bar's tone is painted, not styled.
    void aNewHolderDoesNotLayOutTheWindowAgain() {
        QWidget window;
        auto* card = new HolderCard;
        (new QVBoxLayout(&window))->addWidget(card);
        card->setHolder({"/locks/demo/694d", "694d", 42, "3.0 s", 59.5, 60, "deploy", {}, false});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();

        EventCounter requests(QEvent::LayoutRequest);
        window.installEventFilter(&requests);
        auto* bar = card->findChild<TtlBar*>();
        int lows = 0;
        for (int holder = 0; holder < 20; ++holder) {
            const QString lease = QString::number(0x694d0000 + holder * 7919, 16);
            card->setHolder({"/locks/a-much-longer-lock-name/" + lease,
                             lease,
                             42 + holder,
                             QString("%1 ms").arg(holder),
                             holder % 2 ? 5.0 : 50.0,
                             60,
                             QString("value of holder %1").arg(holder),
                             {},
                             false});
            QCoreApplication::processEvents();
            lows += bar->isLow();
        }
        QCOMPARE(requests.count, 0);
        QCOMPARE(lows, 10); // the tone did change
        QCOMPARE(card->key(), QString("/locks/a-much-longer-lock-name/694f4bbd"));
    }

    // HolderCard's bar is the lock list's: the same tones, filled remaining over granted, with
    // its text on it.
    void ttlBarPaintsTheListsBarAndItsText() {
        TtlBar bar;
        bar.resize(200, 18);
        bar.setTtl(300, 600, "30 s of 60 s", false);
        const auto toneAt = [&bar](int x) { return QColor(bar.grab().toImage().pixel(x, 4)); };
        QCOMPARE(toneAt(10), TtlCountdownDelegate::fillColor(false));
        QCOMPARE(toneAt(190), TtlCountdownDelegate::trackColor(false));
        bar.setTtl(300, 600, "30 s of 60 s", true);
        QCOMPARE(toneAt(10), TtlCountdownDelegate::fillColor(true));
        QCOMPARE(toneAt(190), TtlCountdownDelegate::trackColor(true));
        bar.setTtl(0, 600, "0 s of 60 s", true);
        QCOMPARE(toneAt(10), TtlCountdownDelegate::trackColor(true));
        bar.setTtl(900, 600, "90 s of 60 s", false); // more than granted: full
        QCOMPARE(toneAt(190), TtlCountdownDelegate::fillColor(false));

        const QImage withText = bar.grab().toImage();
        bar.setTtl(900, 600, QString(), false);
        const QImage without = bar.grab().toImage();
        int textPixels = 0;
        for (int x = 60; x < 140; ++x)
            for (int y = 3; y < 15; ++y)
                textPixels += withText.pixel(x, y) != without.pixel(x, y);
        QVERIFY2(textPixels > 20, qPrintable(QString::number(textPixels)));
    }

    // A new TTL is painted with the window's next frame, not at once in the middle of a refresh
    // (QProgressBar's setValue paints at once).
    void ttlBarPaintsWithTheNextFrame() {
        TtlBar bar;
        bar.resize(200, 18);
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QTest::qWait(20);
        EventCounter paints(QEvent::Paint);
        bar.installEventFilter(&paints);
        for (int tenths = 590; tenths > 500; tenths -= 30)
            bar.setTtl(tenths, 600, QString("%1 s of 60 s").arg(tenths / 10), false);
        QCOMPARE(paints.count, 0);
        QTRY_VERIFY(paints.count > 0);
    }

    void delegateFillsRemainingOverGranted() {
        QCOMPARE(TtlCountdownDelegate::fraction(15, 60), 0.25);
        QCOMPARE(TtlCountdownDelegate::fraction(-1, 60), 0.0);
        QCOMPARE(TtlCountdownDelegate::fraction(90, 60), 1.0);
        QCOMPARE(TtlCountdownDelegate::fraction(5, 0), 0.0);

        QStandardItemModel model(2, 1);
        model.setData(model.index(0, 0), "10 s");
        model.setData(model.index(0, 0), 10.0, Qt::UserRole + 1);
        model.setData(model.index(0, 0), 60, Qt::UserRole + 2);
        model.setData(model.index(1, 0), "plain");
        QTableView view;
        view.setItemDelegate(new TtlCountdownDelegate(Qt::UserRole + 1, Qt::UserRole + 2, &view));
        view.setModel(&model);
        view.resize(200, 100);
        QVERIFY(!view.grab().isNull()); // paints both kinds of cell
    }

    // TTL text reads over the two-tone bar (not white over pale, nor dark over green): it keeps
    // WCAG's 4.5:1 over both tones, and the cell is painted in them.
    void ttlTextIsReadableOverBothTonesOfTheBar() {
        for (bool low : {false, true}) {
            const QColor text = TtlCountdownDelegate::textColor();
            QVERIFY2(contrast(text, TtlCountdownDelegate::fillColor(low)) >= 4.5,
                     qPrintable(TtlCountdownDelegate::fillColor(low).name()));
            QVERIFY2(contrast(text, TtlCountdownDelegate::trackColor(low)) >= 4.5,
                     qPrintable(TtlCountdownDelegate::trackColor(low).name()));
        }
        QStandardItemModel model(1, 1);
        model.setData(model.index(0, 0), "30 s");
        model.setData(model.index(0, 0), 30.0, Qt::UserRole + 1);
        model.setData(model.index(0, 0), 60, Qt::UserRole + 2);
        QTableView view;
        view.setItemDelegate(new TtlCountdownDelegate(Qt::UserRole + 1, Qt::UserRole + 2, &view));
        view.setModel(&model);
        view.setColumnWidth(0, 160);
        view.resize(220, 80);
        const QImage image = view.viewport()->grab().toImage();
        const QRect cell = view.visualRect(model.index(0, 0));
        const int y = cell.top() + 5; // above the text
        QCOMPARE(QColor(image.pixel(cell.left() + 12, y)), TtlCountdownDelegate::fillColor(false));
        QCOMPARE(QColor(image.pixel(cell.right() - 12, y)),
                 TtlCountdownDelegate::trackColor(false));
    }

    // The bar is drawn once per fill and copied from then on: what the cell shows still follows
    // the TTL as it counts down, turns red, and is drawn at the screen's pixel ratio.
    void ttlBarFollowsItsValueAtEachPixelRatio() {
        QStandardItemModel model(1, 1);
        model.setData(model.index(0, 0), 60, Qt::UserRole + 2);
        const TtlCountdownDelegate delegate(Qt::UserRole + 1, Qt::UserRole + 2);
        const QRect cell(0, 0, 160, 24);
        const QRect area = cell.adjusted(3, 3, -3, -3);
        for (const qreal ratio : {1.0, 2.0}) {
            for (const double remaining : {54.0, 30.0, 54.0, 6.0}) {
                model.setData(model.index(0, 0), remaining, Qt::UserRole + 1);
                QImage image(cell.size() * ratio, QImage::Format_ARGB32_Premultiplied);
                image.setDevicePixelRatio(ratio);
                image.fill(Qt::white);
                QPainter painter(&image);
                QStyleOptionViewItem option;
                option.rect = cell;
                delegate.paint(&painter, option, model.index(0, 0));
                painter.end();

                const bool low = remaining / 60 < TtlCountdownDelegate::LowFraction;
                const int filled = static_cast<int>(area.width() * remaining / 60);
                const int y = static_cast<int>((area.top() + 3) * ratio); // above the text
                const auto at = [&](int x) { return QColor(image.pixel(x * ratio, y)); };
                const QString where = QString("ratio %1, %2 s left").arg(ratio).arg(remaining);
                QVERIFY2(at(area.left() + 4) == TtlCountdownDelegate::fillColor(low),
                         qPrintable(where));
                QVERIFY2(at(area.left() + filled - 2) == TtlCountdownDelegate::fillColor(low),
                         qPrintable(where));
                QVERIFY2(at(area.left() + filled + 2) == TtlCountdownDelegate::trackColor(low),
                         qPrintable(where));
                QVERIFY2(at(area.right() - 4) == TtlCountdownDelegate::trackColor(low),
                         qPrintable(where));
                // The outline, one logical pixel wide at each ratio, beside the text.
                const int middle = static_cast<int>(area.center().y() * ratio);
                const auto edge = QColor(image.pixel(area.left() * ratio, middle));
                QVERIFY2(edge == TtlCountdownDelegate::edgeColor(low),
                         qPrintable(where + " edge " + edge.name()));
                QVERIFY2(QColor(image.pixel((area.left() + 1) * ratio + 1, middle)) ==
                             TtlCountdownDelegate::fillColor(low),
                         qPrintable(where));
            }
        }
    }

private:
    // WCAG 2's contrast ratio of two colours, 1 to 21.
    static double contrast(const QColor& a, const QColor& b) {
        const auto luminance = [](const QColor& c) {
            const auto linear = [](double v) {
                return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) +
                   0.0722 * linear(c.blueF());
        };
        const double la = luminance(a), lb = luminance(b);
        return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
    }
};

LOCKSCOPE_QTEST_MAIN(HolderCardTest)
#include "holder_card_test.moc"
