#pragma once

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace lockscope {

// The desktop's recording settings: whether to record what is watched, and how much of each
// cluster's history to keep, in days and in megabytes. Plain values in and out; `folder` is
// shown so the user knows where the files go.
class RecordingSettingsDialog : public QDialog {
    Q_OBJECT
public:
    struct Values {
        bool on = true;
        int keepDays = 7;
        int maxMegabytes = 500;
    };

    RecordingSettingsDialog(const Values& values, int maxDays, int maxMegabytes,
                            const QString& folder, QWidget* parent = nullptr);

    Values values() const;

private:
    QCheckBox* on_;
    QSpinBox* keepDays_;
    QSpinBox* maxMegabytes_;
};

} // namespace lockscope
