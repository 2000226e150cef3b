// HolderCard and TtlCountdownDelegate, offscreen, fed with plain values.
#include "widgets/holder_card.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QLabel>
#include <QProgressBar>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace lockscope;

class HolderCardTest : public QObject {
    Q_OBJECT
private slots:
    void showsTheHolder() {
        HolderCard card;
        QCOMPARE(card.key(), QString());
        card.setHolder({"/locks/demo/694d", "694d", 42, "3.0 s", 5.2, 60, "deploy"});
        QCOMPARE(card.key(), QString("/locks/demo/694d"));
        auto* bar = card.findChild<QProgressBar*>();
        QCOMPARE(bar->text(), QString("6 s of 60 s"));
        QVERIFY(bar->styleSheet().contains("#d32f2f")); // under a quarter left
        QVERIFY(card.findChild<QLabel*>("holderKey")->isVisibleTo(&card));
        card.clear("Nobody holds /locks/demo");
        QCOMPARE(card.key(), QString());
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
};

QTEST_MAIN(HolderCardTest)
#include "holder_card_test.moc"
