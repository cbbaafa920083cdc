// Reference numbers for crates/stats: fastchess's LLR and Elo formulas,
// extracted from fastchess 1.8.2 (github.com/Disservin/fastchess, commit
// f618e345, app/src/matchmaking/sprt/sprt.cpp and elo/elo_*.cpp; MIT
// licence, Copyright (c) 2023 disservin), with only what links them to the
// rest of fastchess replaced. `g++ -O2 -std=c++17 fastchess_reference.cpp
// && ./a.out` prints the numbers that tests/fastchess_numbers.rs expects.
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

struct Stats {
    int wins = 0, losses = 0, draws = 0;
    int penta_WW = 0, penta_WD = 0, penta_WL = 0, penta_DD = 0, penta_LD = 0, penta_LL = 0;
};

struct SPRT {
    double lower_, upper_, elo0_, elo1_;
    std::string model_;
    bool enabled_ = true;
    SPRT(double alpha, double beta, double elo0, double elo1, std::string model)
        : lower_(std::log(beta / (1 - alpha))), upper_(std::log((1 - beta) / alpha)), elo0_(elo0), elo1_(elo1),
          model_(model) {}
    static double leloToScore(double lelo) noexcept;
    static double bayeseloToScore(double bayeselo, double drawelo) noexcept;
    double getLLR(const Stats& stats, bool penta) const noexcept;
    double getLLR(int win, int draw, int loss) const noexcept;
    double getLLR(int, int, int, int, int, int) const noexcept;
    double getFraction(double llr) const noexcept;
    template <size_t N>
    double getLLR_logistic(double, std::array<double, N>, std::array<double, N>, double, double) const noexcept;
    template <size_t N>
    double getLLR_normalized(double, std::array<double, N>, std::array<double, N>, double, double) const noexcept;
};

double SPRT::leloToScore(double lelo) noexcept { return 1 / (1 + std::pow(10, (-lelo / 400))); }

double SPRT::bayeseloToScore(double bayeselo, double drawelo) noexcept {
    double pwin  = 1.0 / (1.0 + std::pow(10.0, (-bayeselo + drawelo) / 400.0));
    double ploss = 1.0 / (1.0 + std::pow(10.0, (bayeselo + drawelo) / 400.0));
    double pdraw = 1.0 - pwin - ploss;

    return pwin + 0.5 * pdraw;
}

static double regularize(int value) {
    if (value == 0) return 1e-3;
    return value;
}

double SPRT::getLLR(const Stats& stats, bool penta) const noexcept {
    if (penta)
        return getLLR(stats.penta_WW, stats.penta_WD, stats.penta_WL, stats.penta_DD, stats.penta_LD, stats.penta_LL);

    return getLLR(stats.wins, stats.draws, stats.losses);
}

double SPRT::getFraction(const double llr) const noexcept {
    if (llr >= 0) {
        return llr / upper_;
    } else {
        return -llr / lower_;
    }
}

double SPRT::getLLR(int win, int draw, int loss) const noexcept {
    if (!enabled_) return 0.0;

    double L     = regularize(loss);
    double D     = regularize(draw);
    double W     = regularize(win);
    double total = L + D + W;
    std::array<double, 3> probs{L / total, D / total, W / total};

    if (model_ == "normalized") {
        double t0 = elo0_ / (800.0 / std::log(10));
        double t1 = elo1_ / (800.0 / std::log(10));
        return getLLR_normalized(total, {0.0, 0.5, 1.0}, probs, t0, t1);
    } else if (model_ == "bayesian") {
        if (win == 0 || loss == 0) return 0.0;
        double L       = probs[0];
        double W       = probs[2];
        double drawelo = 200 * std::log10((1 - L) / L * (1 - W) / W);
        double score0  = bayeseloToScore(elo0_, drawelo);
        double score1  = bayeseloToScore(elo1_, drawelo);
        return getLLR_logistic(total, {0.0, 0.5, 1.0}, probs, score0, score1);
    } else {
        double score0 = leloToScore(elo0_);
        double score1 = leloToScore(elo1_);
        return getLLR_logistic(total, {0.0, 0.5, 1.0}, probs, score0, score1);
    }
}

double SPRT::getLLR(int penta_WW, int penta_WD, int penta_WL, int penta_DD, int penta_LD, int penta_LL) const noexcept {
    if (!enabled_) return 0.0;

    double LL    = regularize(penta_LL);
    double LD    = regularize(penta_LD);
    double WL_DD = regularize(penta_DD + penta_WL);
    double WD    = regularize(penta_WD);
    double WW    = regularize(penta_WW);
    double total = WW + WD + WL_DD + LD + LL;
    std::array<double, 5> probs{
        LL / total, LD / total, WL_DD / total, WD / total, WW / total,
    };

    if (model_ == "normalized") {
        double t0 = std::sqrt(2.0) * elo0_ / (800.0 / std::log(10));
        double t1 = std::sqrt(2.0) * elo1_ / (800.0 / std::log(10));
        return getLLR_normalized(total, {0.0, 0.25, 0.5, 0.75, 1.0}, probs, t0, t1);
    } else {
        double score0 = leloToScore(elo0_);
        double score1 = leloToScore(elo1_);
        return getLLR_logistic(total, {0.0, 0.25, 0.5, 0.75, 1.0}, probs, score0, score1);
    }
}

template <size_t N>
static double mean(std::array<double, N> x, std::array<double, N> p) {
    double result = 0.0;
    for (size_t i = 0; i < N; i++) result += x[i] * p[i];
    return result;
}

template <size_t N>
static std::tuple<double, double> mean_and_variance(std::array<double, N> x, std::array<double, N> p) {
    double mu  = mean(x, p);
    double var = 0.0;
    for (size_t i = 0; i < N; i++) var += p[i] * (x[i] - mu) * (x[i] - mu);
    return std::make_tuple(mu, var);
}

// I. F. D. Oliveira and R. H. C. Takahashi. 2020. An Enhancement of the Bisection Method Average Performance
// Preserving Minmax Optimality. ACM Trans. Math. Softw. 47, 1, Article 5 (March 2021).
// https://doi.org/10.1145/3423597
template <typename F>
static double itp(F f, double a, double b, double f_a, double f_b, double k_1, double k_2, double n_0, double epsilon) {
    if (f_a > 0) {
        std::swap(a, b);
        std::swap(f_a, f_b);
    }
    assert(f_a < 0 && 0 < f_b);

    double n_half = std::ceil(std::log2(std::abs(b - a) / (2.0 * epsilon)));
    double n_max  = n_half + n_0;
    for (size_t i = 0; std::abs(b - a) > 2.0 * epsilon; i++) {
        double x_half = (a + b) / 2.0;
        double r      = epsilon * std::pow(2.0, n_max - i) - (b - a) / 2.0;
        double delta  = k_1 * std::pow(b - a, k_2);

        double x_f = (f_b * a - f_a * b) / (f_b - f_a);

        double sigma = (x_half - x_f) / std::abs(x_half - x_f);
        double x_t   = delta <= std::abs(x_half - x_f) ? x_f + sigma * delta : x_half;

        double x_itp = std::abs(x_t - x_half) <= r ? x_t : x_half - sigma * r;

        double f_itp = f(x_itp);
        if (std::fpclassify(f_itp) == FP_ZERO) {
            a = x_itp;
            b = x_itp;
        } else if (std::signbit(f_itp)) {
            a   = x_itp;
            f_a = f_itp;
        } else {
            b   = x_itp;
            f_b = f_itp;
        }
    }

    return (a + b) / 2.0;
}

template <size_t N>
double SPRT::getLLR_logistic(double total, std::array<double, N> scores, std::array<double, N> probs, double s0,
                             double s1) const noexcept {
    // Compute the maximum likelihood estimate for a discrete probability distribution with an expectation of s,
    // given an empirical distribution. See Proposition 1.1 of [1] for details.
    //
    // [1]: Michel Van den Bergh, Comparing the approximations for the generalized log likelihood ratio of a
    // multinomial distribution, https://www.cantate.be/Fishtest/comparing_approximations.pdf
    const auto mle = [&](double s) -> std::array<double, N> {
        const double theta_epsilon = 1e-3;

        // Solve equation 1.3 in [1] for theta.
        double min_theta = -1.0 / (scores[N - 1] - s);
        double max_theta = -1.0 / (scores[0] - s);
        double theta     = itp(
            [&](double x) -> double {
                double result = 0.0;
                for (size_t i = 0; i < N; i++) {
                    double a_i    = scores[i];
                    double phat_i = probs[i];
                    result += phat_i * (a_i - s) / (1.0 + x * (a_i - s));
                }
                return result;
            },
            min_theta, max_theta, INFINITY, -INFINITY, 0.1, 2.0, 0.99, theta_epsilon);

        // ML distribution is given by equation 1.2 in [1].
        std::array<double, N> p;
        for (size_t i = 0; i < N; i++) {
            double a_i    = scores[i];
            double phat_i = probs[i];
            p[i]          = phat_i / (1 + theta * (a_i - s));
        }
        return p;
    };

    std::array<double, N> p0 = mle(s0);
    std::array<double, N> p1 = mle(s1);
    std::array<double, N> lpr;
    for (size_t i = 0; i < N; i++) lpr[i] = std::log(p1[i]) - std::log(p0[i]);
    return total * mean(lpr, probs);
}

template <size_t N>
double SPRT::getLLR_normalized(double total, std::array<double, N> scores, std::array<double, N> probs, double t0,
                               double t1) const noexcept {
    // Compute the maximum likelihood estimate for a discrete probability distribution that has t = (mu - mu_ref) /
    // sigma, given an empirical distribution. See Section 4.1 of [1] for details.
    //
    // [1]: Michel Van den Bergh, Comments on normalized Elo,
    // https://www.cantate.be/Fishtest/normalized_elo_practical.pdf
    const auto mle = [&](double mu_ref, double t_star) -> std::array<double, N> {
        const double theta_epsilon = 1e-7;
        const double mle_epsilon   = 1e-4;

        // This is an iterative method, so we need to start with an initial value. As suggested in [1], we start with a
        // uniform distribution.
        std::array<double, N> p;
        std::fill(p.begin(), p.end(), 1.0 / N);

        for (int iterations = 0; iterations < 10; iterations++) {
            // Calculate phi.
            auto [mu, var] = mean_and_variance(scores, p);
            std::array<double, N> phi;
            for (size_t i = 0; i < N; i++) {
                double a_i   = scores[i];
                double sigma = std::sqrt(var);
                phi[i] = a_i - mu_ref - 0.5 * t_star * sigma * (1.0 + ((a_i - mu) / sigma) * ((a_i - mu) / sigma));
            }

            // We need to find a subset of the possible solutions for theta,
            // so we need to calculate our constraints for theta.
            double u         = *std::min_element(phi.begin(), phi.end());
            double v         = *std::max_element(phi.begin(), phi.end());
            double min_theta = -1.0 / v;
            double max_theta = -1.0 / u;

            // Solve equation 4.9 in [1] for theta.
            double theta = itp(
                [&](double x) -> double {
                    double result = 0.0;
                    for (size_t i = 0; i < N; i++) {
                        double phat_i = probs[i];
                        result += phat_i * phi[i] / (1.0 + x * phi[i]);
                    }
                    return result;
                },
                min_theta, max_theta, INFINITY, -INFINITY, 0.1, 2.0, 0.99, theta_epsilon);

            double max_diff = 0.0;
            // Calculate new estimate
            for (size_t i = 0; i < N; i++) {
                double phat_i = probs[i];
                double newp_i = phat_i / (1.0 + theta * phi[i]);
                max_diff      = std::max(max_diff, std::abs(newp_i - p[i]));
                p[i]          = newp_i;
            }

            // Good enough?
            if (max_diff < mle_epsilon) break;
        }

        return p;
    };

    std::array<double, N> p0 = mle(0.5, t0);
    std::array<double, N> p1 = mle(0.5, t1);
    std::array<double, N> lpr;
    for (size_t i = 0; i < N; i++) lpr[i] = std::log(p1[i]) - std::log(p0[i]);
    return total * mean(lpr, probs);
}


constexpr double CI95ZSCORE = 1.959963984540054;
static double scoreToEloDiff(double score) { return -400.0 * std::log10(1.0 / score - 1.0); }

// EloWDL and EloPentanomial (elo_wdl.cpp, elo_pentanomial.cpp): diff, error, nElo, nElo error, LOS.
static void eloWdl(const Stats& s) {
    double games = s.wins + s.losses + s.draws;
    double W = s.wins / games, D = s.draws / games, L = s.losses / games;
    double score = W + 0.5 * D;
    double var = W * std::pow(1 - score, 2) + D * std::pow(0.5 - score, 2) + L * std::pow(0 - score, 2);
    double vpg = var / games;
    double up = score + CI95ZSCORE * std::sqrt(vpg), lo = score - CI95ZSCORE * std::sqrt(vpg);
    auto nelo = [&](double sc) { return (sc - 0.5) / std::sqrt(var) * (800 / std::log(10)); };
    double los = (1 - std::erf(-(score - 0.5) / std::sqrt(2.0 * vpg))) / 2.0;
    std::printf("wdl elo %.10f error %.10f nelo %.10f nerror %.10f los %.10f\n", scoreToEloDiff(score),
                (scoreToEloDiff(up) - scoreToEloDiff(lo)) / 2.0, nelo(score), (nelo(up) - nelo(lo)) / 2.0, los);
}

static void eloPenta(const Stats& s) {
    double pairs = s.penta_WW + s.penta_WD + s.penta_WL + s.penta_DD + s.penta_LD + s.penta_LL;
    double WW = s.penta_WW / pairs, WD = s.penta_WD / pairs, WL = s.penta_WL / pairs, DD = s.penta_DD / pairs,
           LD = s.penta_LD / pairs, LL = s.penta_LL / pairs;
    double score = WW + 0.75 * WD + 0.5 * (WL + DD) + 0.25 * LD;
    double var = WW * std::pow(1 - score, 2) + WD * std::pow(0.75 - score, 2) + (WL + DD) * std::pow(0.5 - score, 2) +
                 LD * std::pow(0.25 - score, 2) + LL * std::pow(0 - score, 2);
    double vpp = var / pairs;
    double up = score + CI95ZSCORE * std::sqrt(vpp), lo = score - CI95ZSCORE * std::sqrt(vpp);
    auto nelo = [&](double sc) { return (sc - 0.5) / std::sqrt(2 * var) * (800 / std::log(10)); };
    double los = (1 - std::erf(-(score - 0.5) / std::sqrt(2.0 * vpp))) / 2.0;
    std::printf("penta elo %.10f error %.10f nelo %.10f nerror %.10f los %.10f\n", scoreToEloDiff(score),
                (scoreToEloDiff(up) - scoreToEloDiff(lo)) / 2.0, nelo(score), (nelo(up) - nelo(lo)) / 2.0, los);
}

int main() {
    // Pentanomial [LL, LD, WL+DD, WD, WW] and W/D/L cases (tests/fastchess_numbers.rs).
    const int pentas[][5] = {{5, 20, 45, 22, 8}, {3, 2, 3, 0, 2}, {0, 1, 7, 2, 0}, {12, 101, 380, 120, 9}};
    const int wdls[][3] = {{60, 88, 52}, {6, 4, 10}, {31, 73, 96}, {410, 1210, 380}};
    const double bounds[][2] = {{0, 5}, {-5, 0}, {0, 10}, {-1.75, 0.25}};
    const char* models[] = {"normalized", "logistic", "bayesian"};
    for (auto& p : pentas) {
        Stats s;
        s.penta_LL = p[0], s.penta_LD = p[1], s.penta_DD = p[2], s.penta_WD = p[3], s.penta_WW = p[4];
        std::printf("penta [%d, %d, %d, %d, %d]\n", p[0], p[1], p[2], p[3], p[4]);
        eloPenta(s);
        for (auto m : models)
            for (auto& b : bounds) {
                SPRT t(0.05, 0.05, b[0], b[1], m);
                std::printf("llr %s %g %g %.10f\n", m, b[0], b[1], t.getLLR(s, true));
            }
    }
    for (auto& w : wdls) {
        Stats s;
        s.wins = w[0], s.draws = w[1], s.losses = w[2];
        std::printf("wdl %d %d %d\n", w[0], w[1], w[2]);
        eloWdl(s);
        for (auto m : models)
            for (auto& b : bounds) {
                SPRT t(0.05, 0.05, b[0], b[1], m);
                std::printf("llr %s %g %g %.10f\n", m, b[0], b[1], t.getLLR(s, false));
            }
    }
}
